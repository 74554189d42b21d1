import { createPrivateKey, X509Certificate } from 'node:crypto';
import type { Domain } from '@wharf/contract';
import { badRequest } from '../../http/errors.ts';

/** A manual certificate must parse, carry an RSA key, and match the private key given with it. */
export function checkManualCertificates(domains: Domain[]) {
  domains.forEach((domain, index) => {
    const ssl = domain.sslConfiguration;
    if (ssl.type !== 'manual') return;
    const field = `domains.${index}.sslConfiguration`;
    let certificate: X509Certificate;
    try {
      certificate = new X509Certificate(ssl.fullchain);
    } catch {
      throw badRequest(`${field}.fullchain: The certificate chain is not a valid PEM certificate`, [
        { field: `${field}.fullchain`, message: 'The certificate chain is not a valid PEM certificate' },
      ]);
    }
    let key: ReturnType<typeof createPrivateKey>;
    try {
      key = createPrivateKey(ssl.privateKey);
    } catch {
      throw badRequest(`${field}.privateKey: The private key is not a valid PEM key`, [
        { field: `${field}.privateKey`, message: 'The private key is not a valid PEM key' },
      ]);
    }
    if (key.asymmetricKeyType !== 'rsa') {
      throw badRequest(`${field}.privateKey: The private key must be an RSA key`, [
        { field: `${field}.privateKey`, message: 'The private key must be an RSA key' },
      ]);
    }
    if (!certificate.checkPrivateKey(key)) {
      throw badRequest(`${field}.privateKey: The private key does not match the certificate`, [
        { field: `${field}.privateKey`, message: 'The private key does not match the certificate' },
      ]);
    }
  });
}
