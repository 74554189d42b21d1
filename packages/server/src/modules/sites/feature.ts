import { feature } from '../../features/feature.ts';
import { siteCertificateRoutes } from './certificateRoutes.ts';
import { expireUnverifiedClaims } from './claimEnds.ts';
import { siteDomainRoutes } from './domainRoutes.ts';
import { siteRoutes } from './routes.ts';
import { siteSettingsRoutes } from './settingsRoutes.ts';

/**
 * Sites, their settings and custom domains with their certificates; on a worker, the chore that
 * ends domain claims left unverified too long.
 */
export const sitesFeature = feature({
  name: 'sites',
  needs: ['access', 'acme', 'config', 'db', 'handle', 'housekeeping', 'log', 'outbound', 'sealer'],
  routes(parts) {
    siteRoutes(parts);
    siteSettingsRoutes(parts);
    siteDomainRoutes(parts);
    siteCertificateRoutes(parts);
  },
  work({ db, housekeeping, log }) {
    housekeeping.add({
      name: 'custom domain claims',
      async run({ at }) {
        const expiredClaims = await expireUnverifiedClaims({ db }, at);
        if (expiredClaims > 0) log.info({ expiredClaims }, 'ended unverified custom domain claims');
      },
    });
  },
});
