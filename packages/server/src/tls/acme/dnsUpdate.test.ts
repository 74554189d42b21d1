import dgram from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Bind9, startBind9 } from '../../../test/bind9.ts';
import { DnsUpdater, parseDnsUpdateUrl } from './dnsUpdate.ts';

let bind9: Bind9;
beforeAll(async () => {
  bind9 = await startBind9();
});
afterAll(() => bind9?.close());

const updater = (setting = bind9.setting()) => new DnsUpdater(parseDnsUpdateUrl(setting), 3000);

/** The TXT values the server answers for a name, each record's strings joined. */
const txtValues = (name: string) =>
  bind9.resolver.resolveTxt(name).then(
    (records) => records.map((strings) => strings.join('')).sort(),
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENODATA' || error.code === 'ENOTFOUND') return [];
      throw error;
    },
  );

describe('DnsUpdater against BIND', () => {
  it('publishes a TXT record that the server answers at once, and withdraws it (twice is no error)', async () => {
    const dns = updater();
    await dns.setTxt('_acme-challenge.blog.wharf.test', 'token-one');
    await dns.waitForTxt('_acme-challenge.blog.wharf.test', 'token-one', 2000);
    expect(await txtValues('_acme-challenge.blog.wharf.test')).toEqual(['token-one']);
    expect(await bind9.dig('_acme-challenge.blog.wharf.test', 'TXT')).toBe('"token-one"');
    await dns.removeTxt('_acme-challenge.blog.wharf.test', 'token-one');
    expect(await txtValues('_acme-challenge.blog.wharf.test')).toEqual([]);
    await dns.removeTxt('_acme-challenge.blog.wharf.test', 'token-one');
  });

  it('keeps the two values of a wildcard and its bare name apart, removing only the one asked', async () => {
    const dns = updater(bind9.setting(bind9.keys.sha256, 'wharf.test'));
    await dns.setTxt('_acme-challenge.docs.wharf.test', 'for-wildcard');
    await dns.setTxt('_acme-challenge.docs.wharf.test', 'for-bare-name');
    expect(await txtValues('_acme-challenge.docs.wharf.test')).toEqual(['for-bare-name', 'for-wildcard']);
    await dns.removeTxt('_acme-challenge.docs.wharf.test', 'for-wildcard');
    expect(await txtValues('_acme-challenge.docs.wharf.test')).toEqual(['for-bare-name']);
  });

  it('signs with hmac-sha512 when the setting asks for it', async () => {
    const dns = updater(bind9.setting(bind9.keys.sha512));
    await dns.setTxt('_acme-challenge.wharf.test', 'signed-512');
    expect(await txtValues('_acme-challenge.wharf.test')).toEqual(['signed-512']);
  });

  it('sends an update too large for UDP over TCP, the long value in strings of 255 bytes', async () => {
    const long = 'x'.repeat(700);
    await updater().setTxt('_acme-challenge.long.wharf.test', long);
    expect(await txtValues('_acme-challenge.long.wharf.test')).toEqual([long]);
  });

  it('names BADSIG when the secret differs from the server’s', async () => {
    const wrong = { ...bind9.keys.sha256, secret: Buffer.alloc(32, 1).toString('base64') };
    const attempt = updater(bind9.setting(wrong)).setTxt('_acme-challenge.x.wharf.test', 'v');
    await expect(attempt).rejects.toMatchObject({ code: 'BADSIG', message: expect.stringMatching(/answered BADSIG/) });
    expect(await txtValues('_acme-challenge.x.wharf.test')).toEqual([]);
  });

  it('names BADKEY when the server knows no key of that name', async () => {
    const unknown = { ...bind9.keys.sha256, name: 'someone-else' };
    const attempt = updater(bind9.setting(unknown)).setTxt('_acme-challenge.x.wharf.test', 'v');
    await expect(attempt).rejects.toMatchObject({ code: 'BADKEY' });
  });

  it('names NOTZONE for a name outside the zone the setting names', async () => {
    const attempt = updater(bind9.setting(bind9.keys.sha256, 'wharf.test')).setTxt('_acme-challenge.example.org', 'v');
    await expect(attempt).rejects.toMatchObject({
      code: 'NOTZONE',
      message: expect.stringMatching(/not inside the zone/),
    });
  });

  it('names NOTAUTH for a zone the server does not hold', async () => {
    const attempt = updater(bind9.setting(bind9.keys.sha256, 'example.org')).setTxt('_acme-challenge.example.org', 'v');
    await expect(attempt).rejects.toMatchObject({ code: 'NOTAUTH' });
  });

  it('says the server holds no zone for a name when it looks the zone up', async () => {
    const attempt = updater().setTxt('_acme-challenge.example.org', 'v');
    await expect(attempt).rejects.toMatchObject({ code: 'REFUSED', message: expect.stringMatching(/holds no zone/) });
  });

  it('distrusts an answer whose TSIG was altered on the way', async () => {
    const relay = await tamperingRelay(bind9.port);
    try {
      const setting = `rfc2136://${bind9.keys.sha256.name}:${encodeURIComponent(bind9.keys.sha256.secret)}@127.0.0.1:${relay.port}/wharf.test`;
      await expect(updater(setting).setTxt('_acme-challenge.relayed.wharf.test', 'v')).rejects.toThrow(
        /not trusted: its TSIG signature does not match/,
      );
    } finally {
      relay.close();
    }
  });

  it('gives up waiting for a record the server does not answer', async () => {
    await expect(updater().waitForTxt('_acme-challenge.never.wharf.test', 'v', 300)).rejects.toThrow(/within 300 ms/);
  });
});

/** A UDP relay to the server that flips the last byte of each answer (inside its TSIG's other data or error). */
async function tamperingRelay(serverPort: number) {
  const socket = dgram.createSocket('udp4');
  const upstream = dgram.createSocket('udp4');
  let client: dgram.RemoteInfo | undefined;
  socket.on('message', (message, from) => {
    client = from;
    upstream.send(message, serverPort, '127.0.0.1');
  });
  upstream.on('message', (answer) => {
    const altered = Buffer.from(answer);
    altered[altered.length - 7]! ^= 0xff; // the last byte of the MAC: the MAC is followed by 6 bytes
    if (client) socket.send(altered, client.port, client.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    port: socket.address().port,
    close: () => {
      socket.close();
      upstream.close();
    },
  };
}
