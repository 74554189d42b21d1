import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAuthority } from '../../../test/certificates.ts';
import { TestClient } from '../../../test/client.ts';
import { type CodeHostPeer, startGiteaPeer } from '../../../test/codeHostPeers.ts';
import { freePort, startTestServer, type TestServer } from '../../../test/harness.ts';
import { approveOverTls, locationOf } from '../../../test/signInFlow.ts';

/** What Node says of a certificate signed by a CA it was not told of. */
const UNTRUSTED = /UNABLE_TO_VERIFY_LEAF_SIGNATURE: unable to verify the first certificate/;

describe("signing in through a self-hosted Gitea whose certificate is signed by the operator's own CA", () => {
  let dir: string;
  let caFile: string;
  let ca: string;
  let tls: { cert: string; key: string };
  const running: { peer: CodeHostPeer; server: TestServer }[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'wharf-forge-tls-'));
    const authority = testAuthority();
    ca = authority.ca;
    caFile = path.join(dir, 'ca.pem');
    await writeFile(caFile, ca);
    tls = authority.issue(['127.0.0.1']);
    authority.remove();
  });
  afterAll(async () => {
    for (const { peer, server } of running) {
      await server.close();
      await peer.close();
    }
    await rm(dir, { recursive: true, force: true });
  });

  /** Wharf signing in through a Gitea over HTTPS; the answer is where the callback lands the browser. */
  const signIn = async (env: Record<string, string>) => {
    const port = await freePort();
    const client = { clientId: 'wharf-client', clientSecret: 'wharf-secret' };
    const peer = await startGiteaPeer({ ...client, redirectUri: `http://127.0.0.1:${port}/auth/gitea/callback`, tls });
    peer.addUser({ id: 7, login: 'ada', name: 'Ada Lovelace', email: 'ada@example.test', orgs: [] });
    peer.signInAs('ada');
    const server = await startTestServer({
      port,
      withoutUsers: true,
      captureLog: true,
      env: {
        WHARF_GITEA_CLIENT_ID: client.clientId,
        WHARF_GITEA_CLIENT_SECRET: client.clientSecret,
        WHARF_GITEA_URL: peer.url,
        ...env,
      },
    });
    running.push({ peer, server });
    const browser = new TestClient(server.url);
    const authorization = locationOf(await browser.visit('/auth/gitea'));
    expect(authorization.startsWith(`${peer.url}/`)).toBe(true);
    const callback = await approveOverTls(authorization, ca);
    const asked = Date.now();
    const landing = new URL(locationOf(await browser.visit(callback)), server.url);
    return { landing, ms: Date.now() - asked, server };
  };

  it('refuses at once when the code cannot be exchanged, and logs the TLS cause', async () => {
    const { landing, ms, server } = await signIn({});
    expect(`${landing.pathname}${landing.search}`).toBe('/login?error=SIGN_IN_PROVIDER_UNREACHABLE&provider=gitea');
    expect(ms).toBeLessThan(10_000);
    expect(server.logLines.find((line) => line.includes('Sign-in refused'))).toMatch(UNTRUSTED);
  });

  it('signs in once WHARF_EXTRA_CA_CERTS names that CA: the token exchange and the API trust it', async () => {
    const { landing } = await signIn({ WHARF_EXTRA_CA_CERTS: caFile });
    expect(landing.pathname).toBe('/');
  });
});
