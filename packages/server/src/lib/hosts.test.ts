import { describe, expect, it } from 'vitest';
import { parseHost } from './hosts.ts';
import { branchUrl, releaseUrl } from './urls.ts';

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

describe('release addresses', () => {
  it('reads {slug}--{site} as a release, with what the label names otherwise as the fallback', () => {
    expect(parseHost(`k3x9a0qz--shop.${SITES}`, SITES)).toEqual({
      kind: 'release',
      siteName: 'shop',
      releaseSlug: 'k3x9a0qz',
      otherwise: { kind: 'site', siteName: 'k3x9a0qz--shop', branchSlug: null },
    });
    expect(parseHost(`k3x9a0qz--shop.${SITES}`, SITES, 'flat')).toEqual({
      kind: 'release',
      siteName: 'shop',
      releaseSlug: 'k3x9a0qz',
      otherwise: { kind: 'site', siteName: 'shop', branchSlug: 'k3x9a0qz' },
    });
  });

  it('takes only a label whose first part has a slug’s shape, and a site after it', () => {
    for (const label of ['preview--shop', 'k3x9a0q--shop', 'k3x9a0qzz--shop', 'k3x9a0qz--', 'k3x9a0qz-shop'])
      expect(parseHost(`${label}.${SITES}`, SITES).kind, label).toBe('site');
    // Two labels are a nested branch host, never a release.
    expect(parseHost(`k3x9a0qz--shop.preview.${SITES}`, SITES).kind).toBe('site');
  });

  it('makes the URL it reads, one label whatever the branch hosts', () => {
    expect(releaseUrl({ sitesUrl: new URL(`https://${SITES}`) }, 'shop', 'k3x9a0qz')).toBe(
      `https://k3x9a0qz--shop.${SITES}/`,
    );
  });
});
