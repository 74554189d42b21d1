import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAuthority } from '../../test/certificates.ts';
import { expectStatus } from '../../test/client.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { type SmtpPeer, startSmtpPeer } from '../../test/smtpPeer.ts';
import { buildWorld } from '../../test/world.ts';

/** What Node says of a certificate signed by a CA it was not told of. */
const UNTRUSTED = /unable to verify the first certificate/;

describe("mail through an SMTP server whose STARTTLS certificate is signed by the operator's own CA", () => {
  let dir: string;
  let caFile: string;
  let peer: SmtpPeer;
  const servers: TestServer[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'wharf-mail-tls-'));
    const authority = testAuthority();
    caFile = path.join(dir, 'ca.pem');
    await writeFile(caFile, authority.ca);
    peer = await startSmtpPeer({ starttls: authority.issue(['127.0.0.1']) });
    authority.remove();
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    await peer?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const start = async (env: Record<string, string>) => {
    const server = await startTestServer({ captureLog: true, env: { SMTP_URL: peer.url, ...env } });
    servers.push(server);
    return server;
  };

  it('fails each mail within seconds with the TLS cause, in the log and in the email hook’s deliveries', async () => {
    const server = await start({});
    const world = await buildWorld(server.url);
    const { owner } = world.clients;
    const orgHooks = `/api/v1/orgs/${world.org._id}/hooks`;
    const hook = expectStatus(
      await owner.post(orgHooks, {
        type: 'email',
        name: 'ops',
        events: ['team_added'],
        config: { to: 'ops@example.com' },
      }),
      200,
    );
    const asked = Date.now();
    expectStatus(await owner.post(`/api/v1/orgs/${world.org._id}/teams`, { name: 'Mailed' }), 200);
    await expect
      .poll(async () => (await owner.get(`${orgHooks}/${hook._id}/deliveries?page=0&size=10`)).body.items, {
        timeout: 15_000,
      })
      .toEqual([
        expect.objectContaining({
          success: false,
          data: expect.objectContaining({ error: expect.stringMatching(UNTRUSTED) }),
        }),
      ]);
    expect(Date.now() - asked).toBeLessThan(15_000);
    expect(server.logLines.some((line) => line.includes('mail not sent') && UNTRUSTED.test(line))).toBe(true);
    expect(peer.received).toEqual([]);
  });

  it('sends it over STARTTLS once WHARF_EXTRA_CA_CERTS names that CA', async () => {
    const server = await start({ WHARF_EXTRA_CA_CERTS: caFile });
    const world = await buildWorld(server.url);
    const created = await world.clients.owner.post(`/api/v1/orgs/${world.org._id}/invites`, {
      email: 'ada@example.com',
      admin: false,
    });
    expectStatus(created, 200);
    await expect
      .poll(() => peer.received.filter((mail) => mail.to.includes('ada@example.com')).length, { timeout: 15_000 })
      .toBe(1);
  });
});
