import { useEffect } from 'react';
import { OnDemand } from '../../components/OnDemand.tsx';
import { lazyChunk } from '../../lib/chunks.ts';
import { useFirstPageShown } from '../../lib/firstPage.ts';
import { notifyFailure } from '../../lib/notify.ts';
import { useUser } from '../../lib/session.ts';
import { useSystemEnv } from '../../lib/systemEnv.ts';
import { AnalyticsNotice } from './AnalyticsNotice.tsx';

// Only installations with a crash-report service ask: the others never load the question.
const CrashReportPrompt = lazyChunk(() => import('./CrashReportPrompt.tsx').then((m) => m.CrashReportPrompt));
// Only signed-in users are counted, from their first page on: nobody else loads the counting.
const PageViewCounter = lazyChunk(() => import('./pageViews.ts').then((m) => m.PageViewCounter));

/** What the console asks and tells about crash reports and analytics, on every page. */
export function Telemetry() {
  const env = useSystemEnv();
  const signedIn = Boolean(useUser().data);
  const pageShown = useFirstPageShown();
  useEffect(() => {
    if (env.error) notifyFailure('load backend env', env.error);
  }, [env.error]);
  return (
    <>
      {env.data?.crashReports.dsn && (
        <OnDemand>
          <CrashReportPrompt />
        </OnDemand>
      )}
      {/* Only signed-in users are counted, so only they are told; the sign-in form is never covered. */}
      {signedIn && <AnalyticsNotice />}
      {signedIn && pageShown && env.data?.analytics.enabled && (
        <OnDemand>
          <PageViewCounter />
        </OnDemand>
      )}
    </>
  );
}
