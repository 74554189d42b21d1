import { describe, expect, it } from 'vitest';
import { negotiateAnswerCoding, negotiateVariant, parseAcceptEncoding } from './acceptEncoding.ts';

describe('Accept-Encoding', () => {
  it.each([
    // [header, a file with brotli and gzip variants, a file with gzip only]
    ['gzip, deflate, br, zstd', 'br', 'gzip'],
    ['gzip', 'gzip', 'gzip'],
    ['GZIP', 'gzip', 'gzip'],
    ['Br, GZip', 'br', 'gzip'],
    ['x-gzip', 'gzip', 'gzip'],
    ['gzip;q=0', 'identity', 'identity'],
    ['gzip; q=0.000', 'identity', 'identity'],
    ['br;q=0, gzip', 'gzip', 'gzip'],
    ['br;q=0.5, gzip;q=0.8', 'gzip', 'gzip'],
    ['gzip;q=0.5', 'gzip', 'gzip'],
    ['gzip;q=0.5, identity', 'identity', 'identity'],
    ['gzip;Q=0.9, identity;q=0.8', 'gzip', 'gzip'],
    ['*', 'br', 'gzip'],
    ['*;q=0', 'identity', 'identity'],
    ['*;q=0.5, gzip;q=0', 'br', 'identity'],
    ['*, br;q=0', 'gzip', 'gzip'],
    ['identity;q=0', 'identity', 'identity'],
    ['identity;q=0, br;q=0.1', 'br', 'identity'],
    ['', 'identity', 'identity'],
    ['deflate', 'identity', 'identity'],
    ['brotli, gzipped', 'identity', 'identity'],
    ['gzip;q=2', 'identity', 'identity'],
    ['gzip;q=abc, br', 'br', 'identity'],
    [' , ;q=1, gzip', 'gzip', 'gzip'],
  ])('%j gives %s, or %s without brotli', (header, withBoth, gzipOnly) => {
    expect(negotiateVariant(header, true, true)).toBe(withBoth);
    expect(negotiateVariant(header, false, true)).toBe(gzipOnly);
  });

  it('sends a file without variants as it is, whatever the client asks', () => {
    expect(negotiateVariant('br, gzip', false, false)).toBe('identity');
    expect(negotiateVariant(undefined, true, true)).toBe('identity');
  });

  it('reads the weights RFC 9110 allows and nothing else', () => {
    expect(parseAcceptEncoding('br;q=1.000, gzip;q=0.001, identity;q=0.5')).toEqual({
      br: 1,
      gzip: 0.001,
      zstd: 0,
      identity: 0.5,
    });
    expect(parseAcceptEncoding('br;q=0.1234, gzip;q=1.5, identity;q=-1')).toMatchObject({ br: 0, gzip: 0 });
  });

  it('compresses an answer with zstd when weighed at least as gzip and available, else gzip, else not', () => {
    expect(negotiateAnswerCoding('gzip, deflate, br, zstd', true)).toBe('zstd');
    expect(negotiateAnswerCoding('gzip, deflate, br, zstd', false)).toBe('gzip');
    expect(negotiateAnswerCoding('zstd;q=0.5, gzip', true)).toBe('gzip');
    expect(negotiateAnswerCoding('*', true)).toBe('zstd');
    expect(negotiateAnswerCoding('br', true)).toBe('identity');
    expect(negotiateAnswerCoding('zstd;q=0, gzip;q=0', true)).toBe('identity');
    expect(negotiateAnswerCoding(undefined, true)).toBe('identity');
  });
});
