import { api } from '@wharf/contract';
import type { PartsOf } from '../../features/parts.ts';
import { httpError } from '../../http/errors.ts';
import { siteCertificates } from './certificateStates.ts';

/** The certificates Wharf obtains for a site: their state for those who see it, a retry for those who manage it. */
export function siteCertificateRoutes(parts: PartsOf<'access' | 'acme' | 'config' | 'db' | 'handle'>) {
  const { db, config } = parts;
  const certificateOf = async (siteId: string, name: string) =>
    (await siteCertificates(db, config, siteId)).find((certificate) => certificate.name === name);

  parts.handle(api.listSiteCertificates, parts.access.siteViewer, ({ site }) => siteCertificates(db, config, site.id));

  parts.handle(api.retrySiteCertificate, parts.access.siteManager, async ({ site, params }) => {
    if (!parts.acme) throw httpError('ACME_OFF', 'This installation obtains no certificates over ACME');
    const notFound = () => httpError('CERTIFICATE_NOT_FOUND', `The site has no certificate ${params.name} to order`);
    const certificate = await certificateOf(site.id, params.name);
    // The wildcard every site shares is the installation's: a site's managers see it, a restart retries it.
    if (!certificate || certificate.shared) throw notFound();
    if ((await parts.acme.certificates.retryNow(params.name)) === null) throw notFound();
    return (await certificateOf(site.id, params.name)) ?? certificate;
  });
}
