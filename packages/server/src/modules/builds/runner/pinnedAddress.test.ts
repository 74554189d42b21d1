import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GitServer, startGitServer, UNRESOLVABLE_GIT_HOST } from '../../../../test/gitServer.ts';
import { hasSshd, type SshServer, startSshServer } from '../../../../test/sshServer.ts';
import { newDeployKey } from '../../repositories/deployKey.ts';
import type { BuildLog } from './buildLog.ts';
import { type CheckoutRequest, checkOut } from './checkout.ts';

if (!hasSshd())
  console.warn('!! The pinned SSH checkout needs OpenSSH’s server (apt-get install openssh-server): SKIPPED');

/**
 * Git connects to the addresses the repository's host was checked at, never to what a second
 * lookup answers (a name rebound between the check and the clone would point it anywhere): a
 * name that no resolver answers is cloned all the same when pinned to the server's address.
 */
describe('a checkout pinned to the checked addresses', () => {
  let git: GitServer;
  let ssh: SshServer | undefined;
  let scratch: string;
  let commit: string;
  const deployKey = newDeployKey('wharf-pinned');
  const lines: string[] = [];
  const log = { write: (text: string) => void lines.push(text) } as unknown as BuildLog;

  beforeAll(async () => {
    git = await startGitServer('pinned');
    commit = await git.commit('main', 'Pinned', { 'index.html': '<h1>pinned</h1>' });
    if (hasSshd()) {
      ssh = await startSshServer();
      await ssh.authorize(deployKey.publicKey);
    }
    scratch = await mkdtemp(path.join(os.tmpdir(), 'wharf-pinned-'));
  });
  afterAll(async () => {
    await ssh?.close();
    await git?.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  const request = async (url: string, addresses: string[], knownHosts: string | null = null) =>
    ({
      url,
      addresses,
      gitBranch: 'main',
      deployKey: deployKey.privateKey,
      knownHosts,
      extraCaCerts: [await readFile(git.caFile, 'utf8')],
      workDir: await mkdtemp(path.join(scratch, 'build-')),
      log,
      signal: AbortSignal.timeout(60_000),
    }) satisfies CheckoutRequest;

  it('over HTTPS, by a name that never resolves, and at no other address', async () => {
    const port = new URL(git.url).port;
    const url = `https://${UNRESOLVABLE_GIT_HOST}:${port}/pinned.git`;
    const checkedOut = await checkOut(await request(url, ['127.0.0.1']));
    expect(checkedOut.commit).toBe(commit);
    expect(await readFile(path.join(checkedOut.dir, 'index.html'), 'utf8')).toBe('<h1>pinned</h1>');
    // Pinned to an address where nothing listens: git does not fall back to a lookup of its own.
    await expect(checkOut(await request(url, ['127.0.0.2']))).rejects.toThrow(/Could not fetch/);
  });

  it.skipIf(!hasSshd())(
    'over SSH, the host key learnt under the name the URL gives, and insisted on after',
    async () => {
      const url = `ssh://${ssh!.user}@${UNRESOLVABLE_GIT_HOST}:${ssh!.port}${git.barePath}`;
      const first = await checkOut(await request(url, ['127.0.0.1']));
      expect(first.commit).toBe(commit);
      expect(first.knownHosts).toMatch(
        new RegExp(`^\\[${UNRESOLVABLE_GIT_HOST.replaceAll('.', '\\.')}\\]:${ssh!.port} `),
      );
      const again = await checkOut(await request(url, ['127.0.0.1'], first.knownHosts));
      expect(again.commit).toBe(commit);
    },
  );
});
