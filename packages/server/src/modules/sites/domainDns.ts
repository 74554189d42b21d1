import type { Resolver } from 'node:dns/promises';
import type { DnsRecord, DomainDns } from '@wharf/contract';
import type { Config } from '../../config/types.ts';
import { now } from '../../lib/ids.ts';
import { branchUrl } from '../../lib/urls.ts';
import { resolverFor } from './ownershipChecks.ts';

type DnsConfig = Pick<Config, 'sitesUrl' | 'branchHosts' | 'dnsServer' | 'publicAddresses'>;

const bare = (name: string) => name.toLowerCase().replace(/\.$/, '');

/** What a lookup answers, or nothing when the name has no such record (or DNS did not answer). */
const orNone = <T>(lookup: Promise<T[]>): Promise<T[]> => lookup.catch(() => []);

/**
 * Whether a name is its zone's apex: it has an SOA record of its own (a name below the apex answers
 * none). When DNS cannot say, a name of two labels (example.com) is taken for one.
 */
async function isApex(resolver: Resolver, name: string) {
  try {
    await resolver.resolveSoa(name);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENODATA' || code === 'ENOTFOUND') return false;
    return name.split('.').length === 2;
  }
}

async function addressesOf(resolver: Resolver, name: string) {
  const [v4, v6] = await Promise.all([orNone(resolver.resolve4(name)), orNone(resolver.resolve6(name))]);
  return [...v4, ...v6];
}

/** The records to create: a CNAME to the site's own address below the apex, its addresses at the apex. */
function recordsFor(name: string, apex: boolean, target: string, addresses: string[]): DnsRecord[] {
  if (!apex) return [{ type: 'CNAME', name, value: target }];
  if (addresses.length === 0) return [{ type: 'ALIAS', name, value: target }];
  return addresses.map((address) => ({ type: address.includes(':') ? 'AAAA' : 'A', name, value: address }));
}

/**
 * Where a custom domain points now, asked of DNS (`WHARF_DNS_SERVER`, else the system's resolver),
 * and what to create so that it reaches this installation: a CNAME to the site's own address
 * (`{site}.{sites host}`), or at a zone's apex, A and AAAA records naming `WHARF_PUBLIC_ADDRESSES`
 * (else the addresses the site's own address has now).
 */
export async function checkDomainDns(config: DnsConfig, siteName: string, name: string): Promise<DomainDns> {
  const resolver = resolverFor(config.dnsServer);
  const target = new URL(branchUrl(config, siteName, null)).hostname;
  const [apex, cname, found, targetAddresses] = await Promise.all([
    isApex(resolver, name),
    orNone(resolver.resolveCname(name)),
    addressesOf(resolver, name),
    config.publicAddresses.length > 0 ? config.publicAddresses : addressesOf(resolver, target),
  ]);
  const expected = new Set(targetAddresses);
  const throughCname = cname.some((alias) => bare(alias) === target);
  const byAddress = found.length > 0 && found.every((address) => expected.has(address));
  return {
    name,
    apex,
    records: recordsFor(name, apex, target, targetAddresses),
    state: throughCname || byAddress ? 'pointsHere' : 'awaitingDns',
    found: describeFound(name, cname, found),
    checkedAt: now(),
  };
}

function describeFound(name: string, cname: string[], addresses: string[]) {
  const alias = cname.length > 0 ? ` is an alias of ${cname.map(bare).join(', ')} and` : '';
  if (addresses.length === 0) return `${name}${alias} has no address`;
  return `${name}${alias} has the address${addresses.length > 1 ? 'es' : ''} ${addresses.join(', ')}`;
}
