import { describe, expect, it } from 'vitest';
import { countOf } from './plural.ts';

describe('countOf', () => {
  it('uses the singular for one and the plural otherwise, zero included', () => {
    expect(countOf(1, 'scope')).toBe('1 scope');
    expect(countOf(2, 'scope')).toBe('2 scopes');
    expect(countOf(0, 'scope')).toBe('0 scopes');
  });

  it('takes an irregular plural', () => {
    expect(countOf(1, 'delivery', 'deliveries')).toBe('1 delivery');
    expect(countOf(3, 'delivery', 'deliveries')).toBe('3 deliveries');
  });
});
