import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import proxyAddr from '@fastify/proxy-addr';
import type { TrustProxy } from '../config/types.ts';
import { requestHost } from './requestHost.ts';

export const trustNobody: TrustProxy = () => false;

/**
 * A cluster's primary takes requests only from its workers, over a local socket (no address). A
 * worker sends the client it decided on as the only `X-Forwarded-For` entry, so that entry is the
 * client, and nothing a visitor wrote into a header gets further.
 */
export const trustClusterWorkers: TrustProxy = (address, hop) => hop === 0 && !address;

/** Names proxy-addr gives ranges of addresses, allowed beside addresses and CIDRs. */
const RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

export const TRUST_PROXY_FORMS = `off, a number of proxies, or addresses and CIDRs separated by commas (${RANGE_NAMES.join(', ')} name their ranges)`;

/**
 * `WHARF_TRUST_PROXY`: `off` (the default), a number of proxies in front of Wharf, or the
 * addresses of the proxies. Throws a message saying which part is wrong.
 */
export function parseTrustProxy(value: string): TrustProxy {
  const setting = value.trim();
  if (setting === 'off' || setting === '0') return trustNobody;
  if (/^\d+$/.test(setting)) {
    const hops = Number(setting);
    return (_address, hop) => hop < hops;
  }
  const entries = setting.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    try {
      proxyAddr.compile(entry);
    } catch {
      throw new Error(`must be ${TRUST_PROXY_FORMS}; "${entry.slice(0, 60)}" is none of these`);
    }
  }
  return proxyAddr.compile(entries);
}

/** The last of a header's comma-separated values: the one the nearest proxy added. */
function lastEntry(value: string | string[] | undefined) {
  const text = Array.isArray(value) ? value.join(',') : value;
  if (!text) return undefined;
  return text.slice(text.lastIndexOf(',') + 1).trim() || undefined;
}

/** The address a request came from: its socket's, or the one the trusted proxies in front name. */
export function clientAddressOf(req: IncomingMessage, trust: TrustProxy): string {
  const addresses = proxyAddr.all(req, trust);
  return addresses[addresses.length - 1] ?? 'unknown';
}

export interface Client {
  address: string;
  /** The protocol and the host the client asked for, as a trusted proxy in front reports them. */
  protocol: string;
  host: string | undefined;
}

/** Who sent a request and how, under the operator's `WHARF_TRUST_PROXY`; Fastify's `ip`, `protocol` and `host` agree. */
export function clientOf(req: IncomingMessage, trust: TrustProxy): Client {
  const proxied = trust(req.socket.remoteAddress as string, 0);
  const ownProtocol = (req.socket as TLSSocket).encrypted ? 'https' : 'http';
  return {
    address: clientAddressOf(req, trust),
    protocol: (proxied && lastEntry(req.headers['x-forwarded-proto'])) || ownProtocol,
    host: (proxied && lastEntry(req.headers['x-forwarded-host'])) || requestHost(req),
  };
}
