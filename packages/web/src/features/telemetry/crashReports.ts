import { useLocalStorage } from '@mantine/hooks';
import { UI_VERSION } from '@wharf/contract';
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

let started = false;

/** Sends the console's uncaught errors to the installation's crash-report service. */
export async function startCrashReports(dsn: string) {
  if (started) return;
  started = true;
  // Loaded only when reports are on: nobody else pays for the reporting library.
  const Sentry = await import('@sentry/browser');
  Sentry.init({ dsn, release: `wharf-console@${UI_VERSION}`, sendDefaultPii: false });
}
