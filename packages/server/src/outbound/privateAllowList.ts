import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import type { PrivateAllowList } from '../config/types.ts';

export const emptyAllowList = (setting: string): PrivateAllowList => ({ setting, names: new Set(), networks: [] });

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

const normalName = (name: string) => name.toLowerCase().replace(/\.$/, '');

/** Parses a comma-separated list of host names, addresses and CIDRs; throws with the entry it cannot read. */
export function parsePrivateAllowList(setting: string, value: string): PrivateAllowList {
  const list = emptyAllowList(setting);
  for (const entry of value.split(',').map((part) => part.trim())) {
    if (entry === '') continue;
    if (ipaddr.isValidCIDR(entry)) {
      list.networks.push(ipaddr.parseCIDR(entry));
    } else if (isIP(entry)) {
      const address = ipaddr.parse(entry);
      list.networks.push([address, address.kind() === 'ipv4' ? 32 : 128]);
    } else if (HOST_NAME.test(normalName(entry))) {
      list.names.add(normalName(entry));
    } else {
      throw new Error(`"${entry}" is not a host name (jenkins.lan), an address (10.0.0.7) or a CIDR (10.0.0.0/8)`);
    }
  }
  return list;
}

/** An IPv4 address written as IPv6 (`::ffff:10.0.0.5`) is matched as the IPv4 address it is. */
function parsedAddress(address: string) {
  return isIP(address) ? ipaddr.process(address) : null;
}

/** Whether an address lies in one of the listed networks. */
export function listsAddress(list: PrivateAllowList, address: string): boolean {
  const parsed = parsedAddress(address);
  if (!parsed) return false;
  return list.networks.some(([network, bits]) => network.kind() === parsed.kind() && parsed.match(network, bits));
}

/** Whether a host name is listed, in any case and with or without its trailing dot. */
export const listsName = (list: PrivateAllowList, host: string) => list.names.has(normalName(host));

// Never reached through a listed name, only through a listed network that holds them: cloud
// metadata (169.254.169.254) and the other link-local addresses, and addresses that are no host.
const NEVER_BY_NAME = new Set(['linkLocal', 'unspecified', 'multicast', 'broadcast']);

/** Whether a listed name may lead to this address (see NEVER_BY_NAME). */
export function reachableByName(address: string): boolean {
  const parsed = parsedAddress(address);
  return parsed !== null && !NEVER_BY_NAME.has(parsed.range());
}

/** The setting of a comma-separated list of private hosts and networks one kind of outbound connection may reach. */
export function privateAllowListSetting(setting: string) {
  return z
    .string()
    .transform((value, ctx) => {
      try {
        return parsePrivateAllowList(setting, value);
      } catch (error) {
        ctx.addIssue({
          code: 'custom',
          message: `must be host names, addresses and CIDRs separated by commas: ${(error as Error).message}`,
        });
        return z.NEVER;
      }
    })
    .default(emptyAllowList(setting));
}
