import { describe, expect, it } from 'vitest';
import { encodeFor } from './fillCaptures.ts';
import { asciiQuery, normalRequestPath, normalRulePath } from './normalPath.ts';

describe('the normal form of paths', () => {
  it.each([
    ['/plain/path', '/plain/path'],
    ['/%41%7e%2d', '/A~-'],
    ['/caf%C3%A9', '/café'],
    ['/caf%c3%a9', '/café'],
    ['/cafe%CC%81', '/café'],
    ['/a%2fb/c%3fd/e%23f/g%25h/i%5Cj', '/a%2Fb/c%3Fd/e%23f/g%25h/i%5Cj'],
    ['/a%20b', '/a%20b'],
    ['/%ff/%C0%AF/%ED%A0%80/%E6%97', '/%FF/%C0%AF/%ED%A0%80/%E6%97'],
    ['/100%/%zz/%2', '/100%25/%25zz/%252'],
    ['/a/./b/../c//d/', '/a/c/d/'],
    ['/%2e%2E/x/%2e', '/x'],
    ['/q"<>`{|}^', '/q%22%3C%3E%60%7B%7C%7D%5E'],
    ["/keep;@:!$&'()*+,=", "/keep;@:!$&'()*+,="],
    ['/%21', '/%21'],
    ['/', '/'],
  ])('of the request %s is %s', (raw, normal) => {
    expect(normalRequestPath(raw)).toBe(normal);
  });

  it('reads the request line’s bytes as bytes, and a rule’s text as UTF-8', () => {
    expect(normalRequestPath('/caf\xc3\xa9')).toBe('/café');
    expect(normalRequestPath('/caf\xe9')).toBe('/caf%E9');
    expect(normalRulePath('/café/:slug/*')).toBe('/café/:slug/*');
    expect(normalRulePath('/cafe\u0301')).toBe('/café');
    expect(normalRulePath('/caf%C3%A9')).toBe('/café');
  });

  it('writes a query in ASCII, raw bytes escaped as the bytes they are', () => {
    expect(asciiQuery('?a=1&b=%20')).toBe('?a=1&b=%20');
    expect(asciiQuery('?q=\xe6\x97\xa5')).toBe('?q=%E6%97%A5');
  });
});

describe('captures written for their place', () => {
  it.each([
    ['path', 'a/b%3Fc/日本', 'a/b%3Fc/%E6%97%A5%E6%9C%AC'],
    ['path', 'back\\slash "quoted" 100%', 'back%5Cslash%20%22quoted%22%20100%25'],
    ['query', 'a&b=c+d/e?f', 'a%26b%3Dc%2Bd/e?f'],
    ['header', '日本.txt%0D%0A', '%E6%97%A5%E6%9C%AC.txt%0D%0A'],
    ['host', 'shop', 'shop'],
    ['host', 'bücher', 'bücher'],
    ['host', 'a%2Fb', null],
    ['host', 'evil.com/x', null],
    ['host', 'a@b', null],
    ['path', '\ud800x', '%EF%BF%BDx'],
  ] as const)('in a %s, %s is %s', (place, capture, written) => {
    expect(encodeFor(place, capture)).toBe(written);
  });
});
