import { createPrivateKey, X509Certificate } from 'node:crypto';
import { type Domain, messages } from '@wharf/contract';
import type { Config } from '../../config/types.ts';
import { invalidField } from '../../http/errors.ts';
import type { Sealer } from '../../lib/secrets.ts';

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
      throw invalidField(
        `${field}.fullchain`,
        'The certificate chain is not a valid PEM certificate',
        'CERTIFICATE_INVALID',
      );
    }
    let key: ReturnType<typeof createPrivateKey>;
    try {
      key = createPrivateKey(ssl.privateKey ?? '');
    } catch {
      throw invalidField(`${field}.privateKey`, 'The private key is not a valid PEM key', 'CERTIFICATE_INVALID');
    }
    if (key.asymmetricKeyType !== 'rsa') {
      throw invalidField(`${field}.privateKey`, 'The private key must be an RSA key', 'CERTIFICATE_INVALID');
    }
    if (!certificate.checkPrivateKey(key)) {
      throw invalidField(
        `${field}.privateKey`,
        'The private key does not match the certificate',
        'CERTIFICATE_INVALID',
      );
    }
  });
}

/**
 * A manual domain saved without a private key keeps the key saved for the same name (answers
 * never show it, so the console cannot send it back); one that has none saved must bring one.
 * Saved keys are sealed (see sealPrivateKeys): they come back opened, to be checked with the chain.
 */
export function keepSavedPrivateKeys(sealer: Sealer, saved: Domain[], given: Domain[]): Domain[] {
  const savedKeys = new Map(
    saved.flatMap((domain) =>
      domain.sslConfiguration.type === 'manual' && domain.sslConfiguration.privateKey
        ? [[domain.name, sealer.open(domain.sslConfiguration.privateKey)] as const]
        : [],
    ),
  );
  return given.map((domain, index) => {
    // The status answers show of an ACME certificate is read from its row, never stored.
    if (domain.sslConfiguration.type === 'acme') return { ...domain, sslConfiguration: { type: 'acme' } };
    if (domain.sslConfiguration.type !== 'manual') return domain;
    // What answers read from the chain is never stored: it is read again for each answer.
    const { certificate: _read, ...ssl } = domain.sslConfiguration;
    if (ssl.privateKey) return { ...domain, sslConfiguration: ssl };
    const privateKey = savedKeys.get(domain.name);
    if (!privateKey) throw invalidField(`domains.${index}.sslConfiguration.privateKey`, messages.required);
    return { ...domain, sslConfiguration: { ...ssl, privateKey } };
  });
}

/**
 * Manual certificates' private keys are stored sealed, as token values and hook secrets are: a
 * copy of the database alone does not give away the domains' keys. The edge opens them to serve.
 */
export function sealPrivateKeys(sealer: Sealer, domains: Domain[]): Domain[] {
  return domains.map((domain) => {
    const ssl = domain.sslConfiguration;
    if (ssl.type !== 'manual' || !ssl.privateKey) return domain;
    return { ...domain, sslConfiguration: { ...ssl, privateKey: sealer.seal(ssl.privateKey) } };
  });
}

/** Who issued a certificate, as a person reads it: its issuer's common name, with the organization when it adds to it. */
function issuerName(issuer: string): string | null {
  const field = (key: string) => new RegExp(`^${key}=(.*)$`, 'm').exec(issuer)?.[1]?.trim();
  const commonName = field('CN');
  const organization = field('O');
  if (commonName && organization && !commonName.includes(organization)) return `${commonName} (${organization})`;
  return commonName ?? organization ?? null;
}

/** What a certificate covers, until when and who issued it, as answers show it; undefined when it cannot be read. */
export function certificateFacts(
  fullchain: string,
): { expiresAt: string; names: string[]; issuer: string | null } | undefined {
  try {
    const leaf = new X509Certificate(fullchain);
    const names = (leaf.subjectAltName ?? '')
      .split(', ')
      .filter((entry) => entry.startsWith('DNS:'))
      .map((entry) => entry.slice(4));
    return { expiresAt: new Date(leaf.validTo).toISOString(), names, issuer: issuerName(leaf.issuer) };
  } catch {
    return undefined;
  }
}

/**
 * A custom domain may not be one of Wharf's own names: the console's host, the sites host, or any
 * name under the sites host (those are sites' and branches' addresses, served by their routing).
 */
export function mustNotBeWharfHosts(config: Pick<Config, 'url' | 'sitesUrl'>, domains: Domain[]) {
  const sitesHost = config.sitesUrl.hostname;
  domains.forEach((domain, index) => {
    const name = domain.name.toLowerCase();
    if (name === config.url.hostname || name === sitesHost || name.endsWith(`.${sitesHost}`))
      throw invalidField(
        `domains.${index}.name`,
        `Wharf serves ${domain.name} itself: a custom domain must be outside ${sitesHost}`,
        'DOMAIN_RESERVED',
      );
  });
}
