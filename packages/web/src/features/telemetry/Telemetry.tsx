import { useEffect } from 'react';
import { notifyFailure } from '../../lib/notify.ts';
import { AnalyticsNotice } from './AnalyticsNotice.tsx';
import { CrashReportPrompt } from './CrashReportPrompt.tsx';
import { usePageViews } from './pageViews.ts';
import { useSystemEnv } from './systemEnv.ts';

/** What the console asks and tells about crash reports and analytics, on every page. */
export function Telemetry() {
  const env = useSystemEnv();
  usePageViews();
  useEffect(() => {
    if (env.error) notifyFailure('load backend env', env.error);
  }, [env.error]);
  return (
    <>
      <CrashReportPrompt />
      <AnalyticsNotice />
    </>
  );
}
