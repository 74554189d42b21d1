import { describe, expect, it } from 'vitest';
import { newId } from './ids.ts';

describe('newId', () => {
  it('sorts in the order ids were made, even many in one millisecond', () => {
    const made = Array.from({ length: 1000 }, () => newId());
    expect([...made].sort()).toEqual(made);
    expect(new Set(made).size).toBe(made.length);
  });

  it('starts with the time it was made at, in base 36', () => {
    const before = Date.now();
    const time = Number.parseInt(newId().slice(0, 9), 36);
    expect(time).toBeGreaterThanOrEqual(before);
    expect(time).toBeLessThan(Date.now() + 2000);
  });
});
