import { describe, expect, it } from 'vitest';
import { tokenTiming } from './tokenTiming.ts';

const now = Date.parse('2026-03-10T12:00:00Z');
const iso = (hours: number) => new Date(now + hours * 3600_000).toISOString();

describe('tokenTiming (spec.md §4 API token timing)', () => {
  it('says when a token activates before it does', () => {
    expect(tokenTiming({ activatesAt: iso(2), expiresAt: iso(48) }, now)).toEqual({
      state: 'pending',
      label: 'Activates in 2 hours',
    });
  });

  it("says 'active', and when it expires if it does", () => {
    expect(tokenTiming({ activatesAt: iso(-1), expiresAt: null }, now)).toEqual({
      state: 'active',
      label: 'active',
      expires: null,
    });
    expect(tokenTiming({ activatesAt: iso(-1), expiresAt: iso(72) }, now)).toMatchObject({
      state: 'active',
      expires: 'expires in 3 days',
    });
  });

  it('says when an expired token stopped working', () => {
    expect(tokenTiming({ activatesAt: iso(-100), expiresAt: iso(-5) }, now)).toEqual({
      state: 'expired',
      label: 'expired',
      expires: 'expired 5 hours ago',
    });
  });
});
