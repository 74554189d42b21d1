/** Everything the console remembers in the browser, under one prefix. */
export const storageKeys = {
  currentOrg: 'wharf.currentOrg',
  crashReports: 'wharf.crashReports',
  analyticsNotice: 'wharf.analyticsNotice',
  analytics: 'wharf.analytics',
} as const;

type Key = (typeof storageKeys)[keyof typeof storageKeys];

export function readStored(key: Key): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStored(key: Key, value: string | null) {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Private modes may refuse storage: the console then forgets, which is harmless.
  }
}
