import { UI_VERSION } from '@wharf/contract';
import { readStored, storageKeys, writeStored } from '../../lib/storage.ts';

export type CrashReportChoice = 'enabled' | 'disabled';

export function crashReportChoice(): CrashReportChoice | null {
  const stored = readStored(storageKeys.crashReports);
  return stored === 'enabled' || stored === 'disabled' ? stored : null;
}

export function storeCrashReportChoice(choice: CrashReportChoice) {
  writeStored(storageKeys.crashReports, choice);
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
