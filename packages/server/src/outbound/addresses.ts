import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** How each special range is named in refusals, by the names ipaddr.js gives them. */
const rangeNames: Record<string, string> = {
  unspecified: 'the unspecified address',
  loopback: 'a loopback address',
  private: 'a private address',
  carrierGradeNat: 'a shared (carrier-grade NAT) address',
  linkLocal: 'a link-local address',
  uniqueLocal: 'a unique-local address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  rfc6052: 'a local-use NAT64 address',
  '6to4': 'a 6to4 tunnel address',
  teredo: 'a Teredo tunnel address',
};
const RESERVED = 'a reserved address';

// Every public IPv6 address lies in 2000::/3; anything outside it (IPv4-compatible ::a.b.c.d,
// site-local fec0::/10, discard 100::/64…) is never a tenant's public upstream.
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');
const WELL_KNOWN_NAT64 = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

/**
 * The IPv4 address an IPv6 address carries in its last 32 bits when the network delivers it to
 * that IPv4 address: mapped `::ffff:a.b.c.d`, RFC 6145 `::ffff:0:a.b.c.d`, and the well-known NAT64
 * prefix `64:ff9b::/96` (a public NAT64 reaches the same IPv4 host).
 */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const range = address.range();
  if (range !== 'ipv4Mapped' && range !== 'rfc6145' && !address.match(WELL_KNOWN_NAT64)) return null;
  const bytes = address.toByteArray();
  return new ipaddr.IPv4(bytes.slice(12));
}

function refusedIPv4(address: ipaddr.IPv4): string | null {
  const range = address.range();
  if (range === 'unicast') return null;
  return rangeNames[range] ?? RESERVED;
}

function refusedIPv6(address: ipaddr.IPv6): string | null {
  const embedded = embeddedIPv4(address);
  if (embedded) return refusedIPv4(embedded);
  const range = address.range();
  if (range !== 'unicast') return rangeNames[range] ?? RESERVED;
  return address.match(GLOBAL_UNICAST_V6) ? null : RESERVED;
}

/**
 * Why Wharf must not connect to an address for a tenant (`a loopback address`…), or null for a
 * public unicast address. Only public unicast is allowed: loopback, private (RFC 1918), carrier-grade
 * NAT, link-local (cloud metadata at 169.254.169.254), unique-local, unspecified, multicast,
 * broadcast and reserved ranges are refused, also when written as an IPv6 form that reaches them.
 */
export function refusedRange(address: string): string | null {
  if (isIP(address) === 0) return 'not an IP address';
  const parsed = ipaddr.parse(address);
  return parsed.kind() === 'ipv4' ? refusedIPv4(parsed as ipaddr.IPv4) : refusedIPv6(parsed as ipaddr.IPv6);
}
