/** Days before its end from which a manual certificate is shown as expiring. */
export const EXPIRY_WARNING_DAYS = 14;
const DAY_MS = 86_400_000;

export type ExpiryState = { state: 'valid' | 'expiring' | 'expired'; days: number };

/** Where a certificate stands: valid, within 14 days of its end (with the days left), or past it. */
export function expiryOf(expiresAt: string, now: number = Date.now()): ExpiryState {
  const left = Date.parse(expiresAt) - now;
  if (left <= 0) return { state: 'expired', days: 0 };
  const days = Math.ceil(left / DAY_MS);
  return { state: days <= EXPIRY_WARNING_DAYS ? 'expiring' : 'valid', days };
}
