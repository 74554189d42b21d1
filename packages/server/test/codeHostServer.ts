import type { CodeHostPeer, PeerOptions } from './codeHostPeers.ts';
import { freePort, startTestServer, type TestServer } from './harness.ts';

/** The OAuth client Wharf is registered as at a test's code host. */
export const CODE_HOST_CLIENT = { clientId: 'wharf-client', clientSecret: 'wharf-secret' };

/**
 * A Wharf that signs in with one code host, on a port its peer knows as the redirect URI; with the
 * test users (password sign-in) unless `withoutUsers`, and the env `env` adds for the peer.
 */
export async function startWithCodeHost(
  kind: string,
  start: (options: PeerOptions) => Promise<CodeHostPeer>,
  options: { env?: (peer: CodeHostPeer) => Record<string, string>; withoutUsers?: boolean } = {},
): Promise<{ peer: CodeHostPeer; server: TestServer }> {
  const port = await freePort();
  const peer = await start({ ...CODE_HOST_CLIENT, redirectUri: `http://127.0.0.1:${port}/auth/${kind}/callback` });
  const prefix = `WHARF_${kind.toUpperCase()}`;
  const server = await startTestServer({
    port,
    withoutUsers: options.withoutUsers,
    env: {
      [`${prefix}_CLIENT_ID`]: CODE_HOST_CLIENT.clientId,
      [`${prefix}_CLIENT_SECRET`]: CODE_HOST_CLIENT.clientSecret,
      [`${prefix}_URL`]: peer.url,
      ...options.env?.(peer),
    },
  });
  return { peer, server };
}
