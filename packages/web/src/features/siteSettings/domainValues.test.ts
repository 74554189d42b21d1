import type { Site } from '@wharf/contract';
import { describe, expect, it } from 'vitest';
import { newDomain, siteBodyOf, siteValues, validateSite } from './domainValues.ts';

const CHAIN = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----';

const site = {
  name: 'shop',
  color: '#000000',
  mainBranch: 'b1',
  spa: false,
  prettyUrls: true,
  domains: [
    { name: 'www.example.com', exposeBranches: true, sslConfiguration: { type: 'acme' } },
    {
      name: 'shop.example.com',
      exposeBranches: false,
      // Answers never carry the private key.
      sslConfiguration: { type: 'manual', fullchain: CHAIN },
    },
    { name: 'proxied.example.com', exposeBranches: false, sslConfiguration: { type: 'external' } },
  ],
} as unknown as Site;

describe('site settings in the form', () => {
  it('round-trips domains of every SSL type', () => {
    expect(siteBodyOf(siteValues(site)).domains).toEqual(site.domains);
  });

  it('sends pretty URLs with the rest of the settings, as the switch leaves them', () => {
    const values = siteValues(site);
    expect(siteBodyOf(values)).toMatchObject({ spa: false, prettyUrls: true });
    expect(siteBodyOf({ ...values, prettyUrls: false }).prettyUrls).toBe(false);
  });

  it('keeps the saved private key unless a new one is pasted', () => {
    const values = siteValues(site);
    expect(validateSite(values)).toEqual({});
    values.domains[1]!.privateKey = 'NEW KEY';
    expect(siteBodyOf(values).domains[1]?.sslConfiguration).toEqual({
      type: 'manual',
      fullchain: CHAIN,
      privateKey: 'NEW KEY',
    });
  });

  it('offers automatic HTTPS to new domains only where the installation has it, else TLS terminated elsewhere', () => {
    expect(newDomain(true).sslType).toBe('acme');
    expect(newDomain(false).sslType).toBe('external');
  });

  it('needs no certificate for TLS terminated elsewhere, and drops one typed before switching to it', () => {
    const values = siteValues(site);
    values.domains = [{ ...newDomain(false), name: 'a.example.com', fullchain: 'CHAIN', privateKey: 'KEY' }];
    expect(validateSite(values)).toEqual({});
    expect(siteBodyOf(values).domains[0]?.sslConfiguration).toEqual({ type: 'external' });
  });

  it("reports a domain's errors on the form's own fields", () => {
    const values = siteValues(site);
    const manual = { ...newDomain(false), sslType: 'manual' as const };
    values.domains = [manual, { ...newDomain(true), name: 'a.example.com' }, newDomain(true)];
    values.domains[2]!.name = 'a.example.com';
    values.domains[0]!.name = 'b.example.com';
    expect(validateSite(values)).toEqual({
      'domains.0.fullchain': 'Input is required',
      'domains.0.privateKey': 'Input is required',
      'domains.2.name': 'Duplicate domain',
    });
  });

  it('refuses a malformed site name and color with the contract messages', () => {
    const errors = validateSite({ ...siteValues(site), name: 'Shop', color: 'red' });
    expect(errors.name).toBe('Must match ^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$');
    expect(errors.color).toBe('Must match ^#[0-9a-f]{6}$');
  });
});
