import { api } from '@wharf/contract';
import { httpError } from '../../http/errors.ts';
import type { WharfApp } from '../../wharfApp.ts';
import { siteCertificates } from './certificateStates.ts';

/** The certificates Wharf obtains for a site: their state for those who see it, a retry for those who manage it. */
export function siteCertificateRoutes(app: WharfApp) {
  const { db, config } = app;
  const certificateOf = async (siteId: string, name: string) =>
    (await siteCertificates(db, config, siteId)).find((certificate) => certificate.name === name);

  app.handle(api.listSiteCertificates, app.access.siteViewer, ({ site }) => siteCertificates(db, config, site.id));

  app.handle(api.retrySiteCertificate, app.access.siteManager, async ({ site, params }) => {
    if (!app.acme) throw httpError('ACME_OFF', 'This installation obtains no certificates over ACME');
    const notFound = () => httpError('CERTIFICATE_NOT_FOUND', `The site has no certificate ${params.name} to order`);
    const certificate = await certificateOf(site.id, params.name);
    // The wildcard every site shares is the installation's: a site's managers see it, a restart retries it.
    if (!certificate || certificate.shared) throw notFound();
    if ((await app.acme.certificates.retryNow(params.name)) === null) throw notFound();
    return (await certificateOf(site.id, params.name)) ?? certificate;
  });
}
