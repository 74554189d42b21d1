import { api } from '@wharf/contract';
import { API_VERSION } from '../../version.ts';
import type { WharfApp } from '../../wharfApp.ts';

export function systemRoutes(app: WharfApp) {
  const { config } = app;

  app.handle(api.getSystemInfo, app.access.anyone, () => ({ version: API_VERSION }));

  app.handle(api.getSystemEnv, app.access.anyone, () => ({
    url: config.url.origin,
    sitesUrl: config.sitesUrl.origin,
    version: API_VERSION,
    features: { httpsAuto: config.https?.acme != null, email: config.smtpUrl !== null },
    signIn: { oidcName: config.signIn.oidc?.name ?? null },
    crashReports: { dsn: config.crashReportDsn },
    analytics: { enabled: config.analytics },
  }));
}
