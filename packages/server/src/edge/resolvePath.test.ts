import { describe, expect, it } from 'vitest';
import { decodeAndNormalise, normalisePath } from './resolvePath.ts';

// Plain paths skip decoding and splitting: they must come out as the full work would make them.
const PATHS = [
  '',
  '/',
  '/index.html',
  '/a/',
  '/a/b/c.js',
  '/a.',
  '/a..',
  '/a..b/',
  '/~user/',
  '/_next/static/chunk-1.js',
  '//',
  '/a//b',
  '/./a',
  '/a/.',
  '/a/..',
  '/../a',
  '/.well-known/x',
  '/.env',
  '/a%20b',
  '/%2e%2e/a',
  '/%E0%A4%A',
  '/a%00b',
  '/é',
  'a',
  '/a/b/',
];

describe('normalisePath', () => {
  it.each(PATHS)('answers %j as decoding and splitting it would', (path) => {
    expect(normalisePath(path)).toEqual(decodeAndNormalise(path));
  });

  it('decodes, resolves dots and refuses what cannot be decoded', () => {
    expect(normalisePath('/a/b/')).toEqual({ path: 'a/b', trailingSlash: true });
    expect(normalisePath('/a/../b%20c')).toEqual({ path: 'b c', trailingSlash: false });
    expect(normalisePath('/%E0%A4%A')).toBeNull();
    expect(normalisePath('/a%00')).toBeNull();
  });
});
