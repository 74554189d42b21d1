import { useLocalStorage } from '@mantine/hooks';
import { UI_VERSION } from '@wharf/contract';
import { ignoreMissingChunk, loadChunk } from '../../lib/chunks.ts';
import { storageKeys } from '../../lib/storage.ts';

export type CrashReportChoice = 'enabled' | 'disabled';

/** The stored answer to the crash-report question, shared by every component that shows it. */
export function useCrashReportChoice() {
  return useLocalStorage<CrashReportChoice | null>({
    key: storageKeys.crashReports,
    defaultValue: null,
    getInitialValueInEffect: false,
    serialize: (value) => value ?? '',
    deserialize: (value) => (value === 'enabled' || value === 'disabled' ? value : null),
  });
}

type Reporter = typeof import('@sentry/browser');

let reporter: Promise<Reporter> | null = null;

/** Sends the console's uncaught errors to the installation's crash-report service. */
export function startCrashReports(dsn: string) {
  // Loaded only when reports are on: nobody else pays for the reporting library. If it cannot be
  // loaded, this page sends none (the console's notice says part of it is missing).
  reporter ??= loadChunk(() => import('@sentry/browser')).then((Sentry) => {
    Sentry.init({ dsn, release: `wharf-console@${UI_VERSION}`, sendDefaultPii: false });
    return Sentry;
  });
  reporter.catch(ignoreMissingChunk);
}

/** Whether this page sends crash reports. */
export function crashReportsStarted(): boolean {
  return reporter !== null;
}

/**
 * Reports an error that an error boundary caught: React keeps those from the global handlers the
 * reporting library listens to. Nothing is sent while reports are off.
 */
export function reportCrash(error: unknown, componentStack?: string | null) {
  void reporter?.then(
    (Sentry) => Sentry.captureException(error, { contexts: { react: { componentStack } } }),
    ignoreMissingChunk,
  );
}
