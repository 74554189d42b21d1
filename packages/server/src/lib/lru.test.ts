import { describe, expect, it } from 'vitest';
import { LruCache } from './lru.ts';

describe('the LRU cache of the edge', () => {
  it('forgets the least recently used entries once over its budget', () => {
    const cache = new LruCache<string, number>(3);
    for (const key of ['a', 'b', 'c']) cache.set(key, 1);
    cache.get('a');
    cache.set('d', 1);
    expect(cache.get('b')).toBeUndefined();
    expect([cache.get('a'), cache.get('c'), cache.get('d')]).toEqual([1, 1, 1]);
  });

  it('keeps an old entry that is read often while new ones stream through', () => {
    const cache = new LruCache<number, number>(100);
    cache.set(-1, -1);
    for (let i = 0; i < 10_000; i++) {
      cache.set(i, i);
      expect(cache.get(-1)).toBe(-1);
    }
    expect(cache.get(9_999 - 100)).toBeUndefined();
  });

  it('weighs entries and never keeps one heavier than the whole budget', () => {
    const cache = new LruCache<string, Buffer>(10, (buffer) => buffer.length);
    cache.set('big', Buffer.alloc(11));
    cache.set('a', Buffer.alloc(6));
    cache.set('b', Buffer.alloc(6));
    expect([cache.get('big'), cache.get('a')]).toEqual([undefined, undefined]);
    expect(cache.get('b')?.length).toBe(6);
  });
});
