import { describe, expect, it } from 'vitest';
import { randomString } from './random.ts';

describe('randomString', () => {
  it('gives letters and digits of the length asked', () => {
    expect(randomString(32)).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(randomString(16)).toMatch(/^[A-Za-z0-9]{16}$/);
  });

  it('never gives the same secret twice', () => {
    expect(new Set(Array.from({ length: 50 }, () => randomString(16))).size).toBe(50);
  });
});
