import type { DnsUpdateSettings, TsigAlgorithm } from '../../config/types.ts';

/** The TSIG algorithms Wharf signs with (RFC 8945), by their DNS names and Node's digest names. */
export const tsigAlgorithms = { 'hmac-sha256': 'sha256', 'hmac-sha512': 'sha512' } as const satisfies Record<
  TsigAlgorithm,
  string
>;

const form = 'rfc2136://KEYNAME:SECRET@HOST:PORT/ZONE?algorithm=hmac-sha256';
const base64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/**
 * Reads `rfc2136://KEYNAME:SECRET@HOST[:PORT][/ZONE][?algorithm=hmac-sha256|hmac-sha512]`: the secret
 * in base64 as `tsig-keygen` prints it, percent-encoded where it holds `/` (`%2F`), or in base64url.
 * Messages continue the variable's name: "WHARF_ACME_DNS must ...".
 */
export function parseDnsUpdateUrl(value: string): DnsUpdateSettings {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`must be a URL such as ${form}`);
  }
  if (url.protocol !== 'rfc2136:') throw new Error(`must start with rfc2136:// (${form})`);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!host) throw new Error(`must name the DNS server's host (${form})`);
  const name = dnsName(decoded(url.username));
  if (!name) throw new Error(`must name the TSIG key before the secret (${form})`);
  const secretText = decoded(url.password);
  if (!secretText || !base64.test(secretText)) {
    throw new Error(`must hold the TSIG key's secret in base64 after "${name}:" (write "/" as %2F)`);
  }
  const zone = dnsName(decoded(url.pathname.replace(/^\//, '')));
  return {
    server: { host, port: url.port ? Number(url.port) : 53 },
    key: { name, secret: Buffer.from(secretText, 'base64'), algorithm: algorithm(url.searchParams) },
    zone: zone || null,
  };
}

function algorithm(params: URLSearchParams): TsigAlgorithm {
  const unknown = [...params.keys()].filter((key) => key !== 'algorithm');
  if (unknown.length > 0) throw new Error(`has an unknown parameter ${unknown[0]} (only algorithm is read)`);
  const requested = (params.get('algorithm') ?? 'hmac-sha256').toLowerCase();
  if (!(requested in tsigAlgorithms)) {
    throw new Error(`algorithm must be ${Object.keys(tsigAlgorithms).join(' or ')}, not ${requested}`);
  }
  return requested as TsigAlgorithm;
}

/** A name without its trailing dot; names compare case-insensitively, so lower case. */
function dnsName(text: string) {
  const name = text.replace(/\.$/, '').toLowerCase();
  if (!name) return name;
  if (name.split('.').some((label) => label.length === 0 || label.length > 63)) {
    throw new Error(`holds "${text}", which is not a DNS name`);
  }
  return name;
}

function decoded(text: string) {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new Error(`holds "${text}", whose percent-encoding is broken`);
  }
}
