import { describe, expect, it } from 'vitest';
import { expiryOf } from './certificateExpiry.ts';

const now = Date.parse('2026-11-24T12:00:00Z');
const inDays = (days: number) => new Date(now + days * 86_400_000).toISOString();

describe('expiry of a manual certificate', () => {
  it('is valid until 14 days before its end, then expiring with the days left, then expired', () => {
    expect(expiryOf(inDays(30), now)).toEqual({ state: 'valid', days: 30 });
    expect(expiryOf(inDays(14.5), now)).toEqual({ state: 'valid', days: 15 });
    expect(expiryOf(inDays(14), now)).toEqual({ state: 'expiring', days: 14 });
    expect(expiryOf(inDays(0.2), now)).toEqual({ state: 'expiring', days: 1 });
    expect(expiryOf(inDays(0), now)).toEqual({ state: 'expired', days: 0 });
    expect(expiryOf(inDays(-3), now)).toEqual({ state: 'expired', days: 0 });
  });
});
