import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/load.ts';

const acmeDns = (value: string) => loadConfig({ WHARF_HTTPS_PORT: '443', WHARF_ACME_DNS: value }).https?.acme?.dns;
const problem = (value: string) => {
  try {
    acmeDns(value);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${value} was taken`);
};

describe('WHARF_ACME_DNS', () => {
  it('reads the server, the key, the zone and the algorithm', () => {
    const secret = Buffer.alloc(64, 0xfb).toString('base64');
    expect(secret).toContain('/');
    const settings = acmeDns(
      `rfc2136://Wharf-Key.:${encodeURIComponent(secret)}@ns1.example.org:5353/Example.org.?algorithm=hmac-sha512`,
    );
    expect(settings).toEqual({
      server: { host: 'ns1.example.org', port: 5353 },
      key: { name: 'wharf-key', secret: Buffer.alloc(64, 0xfb), algorithm: 'hmac-sha512' },
      zone: 'example.org',
    });
  });

  it('defaults to port 53, hmac-sha256 and the zone found from the server', () => {
    expect(acmeDns('rfc2136://wharf:c2VjcmV0@[::1]')).toEqual({
      server: { host: '::1', port: 53 },
      key: { name: 'wharf', secret: Buffer.from('secret'), algorithm: 'hmac-sha256' },
      zone: null,
    });
  });

  it('takes a secret in base64url, so that it needs no percent-encoding', () => {
    const secret = Buffer.alloc(64, 0xfb);
    expect(acmeDns(`rfc2136://wharf:${secret.toString('base64url')}@127.0.0.1`)?.key.secret).toEqual(secret);
  });

  it('is off when unset', () => {
    expect(loadConfig({ WHARF_HTTPS_PORT: '443' }).https?.acme?.dns).toBeNull();
  });

  it.each([
    ['ns1.example.org', 'WHARF_ACME_DNS must be a URL such as rfc2136://KEYNAME:SECRET@HOST:PORT/ZONE'],
    ['https://wharf:c2VjcmV0@ns1.example.org', 'WHARF_ACME_DNS must start with rfc2136://'],
    ['rfc2136://ns1.example.org', 'WHARF_ACME_DNS must name the TSIG key before the secret'],
    ['rfc2136://wharf@ns1.example.org', 'WHARF_ACME_DNS must hold the TSIG key\'s secret in base64 after "wharf:"'],
    ['rfc2136://wharf:not*base64@ns1.example.org', "WHARF_ACME_DNS must hold the TSIG key's secret in base64"],
    ['rfc2136://wharf:c2VjcmV0@ns1?algorithm=hmac-md5', 'WHARF_ACME_DNS algorithm must be hmac-sha256 or hmac-sha512'],
    ['rfc2136://wharf:c2VjcmV0@ns1?zone=x', 'WHARF_ACME_DNS has an unknown parameter zone'],
    ['rfc2136://wharf:c2VjcmV0@ns1/a..b', 'WHARF_ACME_DNS holds "a..b", which is not a DNS name'],
  ])('refuses %s, saying what is wrong', (value, message) => {
    expect(problem(value)).toContain(message);
  });
});
