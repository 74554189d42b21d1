import { describe, expect, it } from 'vitest';
import { refusedRange } from './addresses.ts';

describe('which addresses Wharf refuses to connect to for a tenant', () => {
  it.each([
    ['127.0.0.1', 'a loopback address'],
    ['127.255.0.9', 'a loopback address'],
    ['::1', 'a loopback address'],
    ['0.0.0.0', 'the unspecified address'],
    ['::', 'the unspecified address'],
    ['10.1.2.3', 'a private address'],
    ['172.16.0.1', 'a private address'],
    ['172.31.255.254', 'a private address'],
    ['192.168.1.1', 'a private address'],
    ['100.64.0.1', 'a shared (carrier-grade NAT) address'],
    ['169.254.169.254', 'a link-local address'],
    ['fe80::1', 'a link-local address'],
    ['fe80::1%eth0', 'a link-local address'],
    ['fc00::1', 'a unique-local address'],
    ['fd12:3456::1', 'a unique-local address'],
    ['224.0.0.1', 'a multicast address'],
    ['ff02::1', 'a multicast address'],
    ['255.255.255.255', 'the broadcast address'],
    ['240.0.0.1', 'a reserved address'],
    ['192.0.2.1', 'a reserved address'],
    ['198.18.0.1', 'a reserved address'],
    ['2001:db8::1', 'a reserved address'],
    ['fec0::1', 'a reserved address'],
  ])('refuses %s as %s', (address, range) => {
    expect(refusedRange(address)).toBe(range);
  });

  it.each([
    ['::ffff:127.0.0.1', 'a loopback address'],
    ['::ffff:7f00:1', 'a loopback address'],
    ['::ffff:169.254.169.254', 'a link-local address'],
    ['::ffff:0:10.0.0.1', 'a private address'],
    ['64:ff9b::10.0.0.1', 'a private address'],
    ['64:ff9b::7f00:1', 'a loopback address'],
    ['64:ff9b:1::a00:1', 'a local-use NAT64 address'],
    ['::7f00:1', 'a reserved address'],
    ['2002:7f00:1::1', 'a 6to4 tunnel address'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'a Teredo tunnel address'],
  ])('refuses %s, an IPv6 form that may reach an IPv4 host or tunnel, as %s', (address, range) => {
    expect(refusedRange(address)).toBe(range);
  });

  it.each(['93.184.215.14', '1.1.1.1', '2606:4700:4700::1111', '::ffff:93.184.215.14', '64:ff9b::5db8:d70e'])(
    'allows the public address %s',
    (address) => {
      expect(refusedRange(address)).toBeNull();
    },
  );

  it('refuses what is not an address at all', () => {
    expect(refusedRange('example.com')).toBe('not an IP address');
  });
});
