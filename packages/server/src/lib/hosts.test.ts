import { describe, expect, it } from 'vitest';
import { parseHost } from './hosts.ts';
import { branchUrl } from './urls.ts';

const SITES = 'sites.example.com';

describe('branch hosts, nested (the default)', () => {
  it('reads {site} and {branch}.{site} under the sites host', () => {
    expect(parseHost(`shop.${SITES}`, SITES)).toEqual({ kind: 'site', siteName: 'shop', branchSlug: null });
    expect(parseHost(`preview.shop.${SITES}`, SITES)).toEqual({
      kind: 'site',
      siteName: 'shop',
      branchSlug: 'preview',
    });
  });

  it('takes a label with -- for a site name', () => {
    expect(parseHost(`my--shop.${SITES}`, SITES)).toEqual({ kind: 'site', siteName: 'my--shop', branchSlug: null });
  });

  it('makes the URLs it reads', () => {
    const config = { sitesUrl: new URL(`https://${SITES}`), branchHosts: 'nested' as const };
    expect(branchUrl(config, 'shop', null)).toBe(`https://shop.${SITES}/`);
    expect(branchUrl(config, 'shop', 'preview')).toBe(`https://preview.shop.${SITES}/`);
  });
});

describe('branch hosts, flat', () => {
  it('reads {site} and {branch}--{site} under the sites host, one label each', () => {
    expect(parseHost(`shop.${SITES}`, SITES, 'flat')).toEqual({ kind: 'site', siteName: 'shop', branchSlug: null });
    expect(parseHost(`feature-login--shop.${SITES}`, SITES, 'flat')).toEqual({
      kind: 'site',
      siteName: 'shop',
      branchSlug: 'feature-login',
    });
  });

  it('splits at the first --, since a slug never holds one', () => {
    expect(parseHost(`preview--my--shop.${SITES}`, SITES, 'flat')).toEqual({
      kind: 'site',
      siteName: 'my--shop',
      branchSlug: 'preview',
    });
  });

  it('serves no nested branch host', () => {
    expect(parseHost(`preview.shop.${SITES}`, SITES, 'flat').kind).toBe('domain');
  });

  it('makes the URLs it reads', () => {
    const config = { sitesUrl: new URL(`http://${SITES}:8080`), branchHosts: 'flat' as const };
    expect(branchUrl(config, 'shop', null)).toBe(`http://shop.${SITES}:8080/`);
    expect(branchUrl(config, 'shop', 'feature-login')).toBe(`http://feature-login--shop.${SITES}:8080/`);
  });
});
