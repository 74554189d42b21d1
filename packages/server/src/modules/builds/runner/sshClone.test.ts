import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, type TestClient } from '../../../../test/client.ts';
import { type GitServer, startGitServer } from '../../../../test/gitServer.ts';
import { startTestServer, type TestServer } from '../../../../test/harness.ts';
import { siteRequest } from '../../../../test/siteClient.ts';
import { hasSshd, type SshServer, startSshServer } from '../../../../test/sshServer.ts';
import { buildWorld, type World } from '../../../../test/world.ts';

if (!hasSshd()) console.warn('!! Cloning over SSH needs OpenSSH’s server (apt-get install openssh-server): SKIPPED');

/**
 * A repository cloned over SSH with the site's deploy key, from OpenSSH's own server. The site is
 * plain files (nothing to install, no build command), so no container runs: this is the clone.
 */
describe.skipIf(!hasSshd())('cloning a repository over SSH with the deploy key', () => {
  let git: GitServer;
  let ssh: SshServer;
  let server: TestServer;
  let world: World;
  let owner: TestClient;
  let base: string;

  const buildToEnd = async () => {
    const queued = expectStatus(await owner.post(`${base}/builds`, {}), 201);
    for (let tries = 0; tries < 300; tries++) {
      const build = expectStatus(await owner.get(`${base}/builds/${queued._id}`), 200);
      if (!['queued', 'running'].includes(build.state)) return build;
      await sleep(100);
    }
    throw new Error('the build did not end in 30 s');
  };

  beforeAll(async () => {
    git = await startGitServer('over-ssh');
    await git.commit('main', 'Served over SSH', { 'index.html': '<h1>Cloned over SSH</h1>' });
    ssh = await startSshServer();
    server = await startTestServer({
      env: { WHARF_BUILD_RUNTIME: 'podman', WHARF_BUILD_ALLOWED_PRIVATE: '127.0.0.1' },
    });
    world = await buildWorld(server.url);
    owner = world.clients.owner;
    base = `/api/v1/sites/${world.site._id}`;
  });
  afterAll(async () => {
    await server?.close();
    await ssh?.close();
    await git?.close();
  });

  it('clones with the deploy key the forge was given, and not with one it was not', async () => {
    const url = `ssh://${ssh.user}@127.0.0.1:${ssh.port}${git.barePath}`;
    const repository = expectStatus(await owner.put(`${base}/repository`, { url, productionBranch: 'main' }), 200);
    await ssh.authorize(repository.deployKey.publicKey);
    const built = await buildToEnd();
    const log = expectStatus(await owner.get(`${base}/builds/${built._id}/log`), 200).lines.map(
      (l: { text: string }) => l.text,
    );
    expect(built.state, log.join('\n')).toBe('succeeded');
    const port = Number(new URL(server.url).port);
    expect((await siteRequest(port, `${world.site.name}.localhost`, '/')).text).toContain('<h1>Cloned over SSH</h1>');

    // The host's key is learnt at the first clone, and insisted on after it.
    const { sshHostKey } = expectStatus(await owner.get(`${base}/repository`), 200);
    expect(sshHostKey.fingerprints).toEqual([expect.stringMatching(/^SHA256:[A-Za-z0-9+/]{43}$/)]);

    // A new key, not yet added at the forge: the old one no longer works here, the new one not yet there.
    const renewed = expectStatus(await owner.post(`${base}/repository/deploy-key`), 200);
    const refused = await buildToEnd();
    expect(refused.state).toBe('failed');
    expect(refused.error.startsWith(`Could not fetch the branch main of ${url}`)).toBe(true);
    await ssh.authorize(renewed.deployKey.publicKey);
    expect((await buildToEnd()).state).toBe('succeeded');
  });

  it('refuses a host that shows another key than the first clone learnt, until told to forget it', async () => {
    const learnt = expectStatus(await owner.get(`${base}/repository`), 200).sshHostKey.fingerprints;
    await ssh.changeHostKey();
    const refused = await buildToEnd();
    expect(refused).toMatchObject({ state: 'failed' });
    expect(refused.error).toMatch(/the host must show the SSH key the first clone learnt\)$/);
    const log = expectStatus(await owner.get(`${base}/builds/${refused._id}/log`), 200).lines.map(
      (l: { text: string }) => l.text,
    );
    expect(log.join('\n')).toMatch(/REMOTE HOST IDENTIFICATION HAS CHANGED|Host key verification failed/);

    const forgotten = expectStatus(await owner.delete(`${base}/repository/ssh-host-key`), 200);
    expect(forgotten.sshHostKey).toBeNull();
    expect((await buildToEnd()).state).toBe('succeeded');
    const relearnt = expectStatus(await owner.get(`${base}/repository`), 200).sshHostKey.fingerprints;
    expect(relearnt).toHaveLength(1);
    expect(relearnt).not.toEqual(learnt);
  });
});
