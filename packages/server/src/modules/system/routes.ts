import { api } from '@wharf/contract';
import { feature } from '../../features/feature.ts';
import type { PartsOf } from '../../features/parts.ts';
import { API_VERSION } from '../../version.ts';

const needs = ['access', 'config', 'handle'] as const;

function systemRoutes(parts: PartsOf<(typeof needs)[number]>) {
  const { config } = parts;

  parts.handle(api.getSystemInfo, parts.access.everyone, () => ({ version: API_VERSION }));

  parts.handle(api.getSystemEnv, parts.access.everyone, () => ({
    url: config.url.origin,
    sitesUrl: config.sitesUrl.origin,
    version: API_VERSION,
    features: { httpsAuto: config.https?.acme != null, email: config.smtpUrl !== null, builds: config.builds !== null },
    signIn: { oidcName: config.signIn.oidc?.name ?? null },
    crashReports: { dsn: config.crashReportDsn },
    analytics: { enabled: config.analytics },
  }));
}

/** The installation's settings and state. */
export const systemFeature = feature({ name: 'system', needs, routes: systemRoutes });
