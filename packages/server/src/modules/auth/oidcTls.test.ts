import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAuthority } from '../../../test/certificates.ts';
import { TestClient } from '../../../test/client.ts';
import { startTestServer, type TestServer } from '../../../test/harness.ts';
import { type OidcPeer, oidcEnv, startOidcPeer } from '../../../test/oidcPeer.ts';
import { approveOverTls, locationOf } from '../../../test/signInFlow.ts';

/** What Node says of a certificate signed by a CA it was not told of. */
const UNTRUSTED = /UNABLE_TO_VERIFY_LEAF_SIGNATURE: unable to verify the first certificate/;

describe("signing in through an OpenID Connect provider whose certificate is signed by the operator's own CA", () => {
  let dir: string;
  let caFile: string;
  let ca: string;
  let peer: OidcPeer;
  const servers: TestServer[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'wharf-oidc-tls-'));
    const authority = testAuthority();
    caFile = path.join(dir, 'ca.pem');
    ca = authority.ca;
    await writeFile(caFile, ca);
    peer = await startOidcPeer({ tls: authority.issue(['localhost', '127.0.0.1']) });
    authority.remove();
    peer.signInAs({ sub: 'ada-1', name: 'Ada Lovelace', email: 'ada@example.test' });
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    await peer?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const start = async (env: Record<string, string>) => {
    const server = await startTestServer({ withoutUsers: true, captureLog: true, env: { ...oidcEnv(peer), ...env } });
    servers.push(server);
    return server;
  };

  it('sends the browser back to /login at once, and logs the TLS cause of the failed discovery', async () => {
    expect(peer.issuer).toMatch(/^https:/);
    const server = await start({});
    const asked = Date.now();
    const answer = await new TestClient(server.url).visit('/auth/oidc');
    expect(Date.now() - asked).toBeLessThan(10_000);
    expect(answer.headers.get('location')).toBe('/login?error=SIGN_IN_PROVIDER_UNREACHABLE&provider=oidc');
    const logged = server.logLines.find((line) => line.includes(`discovery of ${peer.issuer}`));
    expect(logged).toMatch(UNTRUSTED);
  });

  it('signs in once WHARF_EXTRA_CA_CERTS names that CA: discovery, keys, token and userinfo all trust it', async () => {
    const server = await start({ WHARF_EXTRA_CA_CERTS: caFile, WHARF_OIDC_ALLOWED_GROUPS: 'staff' });
    peer.signInAs(
      { sub: 'ada-1', name: 'Ada Lovelace', email: 'ada@example.test', groups: ['staff'] },
      { groupsIn: 'userinfo' },
    );
    const client = new TestClient(server.url);
    const authorization = locationOf(await client.visit('/auth/oidc'));
    // The browser trusts the provider's CA as well, and follows its approval back to Wharf.
    const callback = await approveOverTls(authorization, ca);
    expect(new URL(locationOf(await client.visit(callback)), server.url).pathname).toBe('/');
    expect((await client.get('/api/v1/user')).body).toMatchObject({ name: 'Ada Lovelace', provider: 'oidc' });
  });
});
