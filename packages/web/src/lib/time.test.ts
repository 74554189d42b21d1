import { describe, expect, it } from 'vitest';
import { isPast, relativeTime } from './time.ts';

const now = Date.parse('2026-03-10T12:00:00Z');
const at = (seconds: number) => new Date(now + seconds * 1000);

describe('relativeTime', () => {
  it('says just now for less than 45 seconds either way, clocks never being exactly together', () => {
    expect(relativeTime(at(-10), now)).toBe('just now');
    expect(relativeTime(at(20), now)).toBe('just now');
  });

  it('counts minutes, hours, days, months and years in both directions', () => {
    expect(relativeTime(at(-5 * 60), now)).toBe('5 minutes ago');
    expect(relativeTime(at(2 * 3600), now)).toBe('in 2 hours');
    expect(relativeTime(at(-3 * 86400), now)).toBe('3 days ago');
    expect(relativeTime(at(7 * 86400 - 5), now)).toBe('in 7 days');
    expect(relativeTime(at(-60 * 86400), now)).toBe('2 months ago');
    expect(relativeTime(at(2 * 365 * 86400), now)).toBe('in 2 years');
  });

  it('moves to the next unit only when it reads better', () => {
    expect(relativeTime(at(44 * 60), now)).toBe('in 44 minutes');
    expect(relativeTime(at(50 * 60), now)).toBe('in 1 hour');
    expect(relativeTime(at(-25 * 86400), now)).toBe('25 days ago');
  });
});

describe('isPast', () => {
  it('treats the present as past: an invite expiring now is expired', () => {
    expect(isPast(at(0), now)).toBe(true);
    expect(isPast(at(1), now)).toBe(false);
  });
});
