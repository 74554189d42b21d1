import { setTimeout as sleep } from 'node:timers/promises';
import type { BuildLogLine, BuildLogMessage } from '@wharf/contract';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuildStage, siteFiles, startBuildStage } from '../../../test/buildStage.ts';
import { expectStatus, type TestClient } from '../../../test/client.ts';
import type { GitServer } from '../../../test/gitServer.ts';
import { startTestServer, type TestServer } from '../../../test/harness.ts';
import { podman, podmanWorks } from '../../../test/podman.ts';
import { connectRealtime } from '../../../test/realtimeClient.ts';
import { buildWorld, type World } from '../../../test/world.ts';

const works = podmanWorks();
if (!works) console.warn('!! The builds suite needs podman (apt-get install podman runc slirp4netns): SKIPPED');

describe.skipIf(!works)('building a site from its repository in a container', () => {
  let stage: BuildStage;
  let git: GitServer;
  let server: TestServer;
  let world: World;
  let owner: TestClient;
  let base: string;

  const untilFinished = (buildId: string) => stage.untilFinished(buildId);
  const logOf = (buildId: string) => stage.logOf(buildId);
  const page = () => stage.page();

  beforeAll(async () => {
    stage = await startBuildStage('shop');
    ({ git, server, world, owner, base } = stage);
  }, 25 * 60_000);
  afterAll(() => stage?.close());

  let firstCommit: string;
  let firstBuild: { _id: string; releaseId: string };

  it('builds the production branch at its head and publishes it to the main branch, phase by phase', async () => {
    const port = Number(new URL(server.url).port);
    firstCommit = await git.commit('main', 'First page\n\nWith a body.', siteFiles(port, 'Hello from git'));
    const queued = expectStatus(await owner.post(`${base}/builds`, {}), 201);
    expect(queued).toMatchObject({
      state: 'queued',
      gitBranch: 'main',
      branch: 'main',
      trigger: 'manual',
      triggeredBy: 'owner',
    });

    const build = await untilFinished(queued._id);
    const log = await logOf(queued._id);
    expect(build.state, log.join('\n')).toBe('succeeded');
    expect(build.source).toMatchObject({
      commit: firstCommit,
      branch: 'main',
      author: 'Ada Lovelace <ada@example.test>',
      message: 'First page\n\nWith a body.',
    });
    expect(build.phases.map((phase: { name: string; state: string }) => `${phase.name} ${phase.state}`)).toEqual([
      'clone succeeded',
      'restoreCache skipped',
      'install succeeded',
      'build succeeded',
      'upload succeeded',
      'saveCache succeeded',
    ]);
    for (const phase of build.phases) expect(phase.durationMs).toBeGreaterThanOrEqual(0);
    expect(await page()).toContain('<h1>Hello from git</h1><p>build 1</p>');
    // As a user other than root, told it runs in CI, without a way to the host's own loopback.
    expect(log).toContain('built by user 1000 with CI=true');
    expect(log.find((line: string) => line.includes('Wharf'))).toMatch(/^could not reach Wharf/);
    expect(log).toContain('Left out passwd: a symbolic link');

    const release = expectStatus(await owner.get(`/api/v1/releases/${build.releaseId}`), 200);
    expect(release.source).toMatchObject({ commit: firstCommit, ci: 'Wharf', branch: 'main' });
    expect(release.source.ciRunUrl).toBe(`${server.url}/sites/${world.site._id}/builds/${build._id}`);
    const files = expectStatus(await owner.get(`/api/v1/releases/${build.releaseId}/files`), 200);
    expect(JSON.stringify(files)).not.toContain('passwd');
    firstBuild = build;
  });

  it('builds again from a build hook, with the site’s cache restored', async () => {
    const hook = expectStatus(await owner.post(`${base}/build-hooks`, { name: 'CMS', gitBranch: 'main' }), 201);
    expect(hook.url).toMatch(new RegExp(`^${server.url}/api/v1/build-hooks/[A-Za-z0-9_-]{43}$`));
    expect(JSON.stringify(expectStatus(await owner.get(`${base}/build-hooks`), 200))).not.toContain(hook.url);

    const called = await fetch(hook.url, { method: 'POST', body: '{"from":"a CMS"}' });
    expect(called.status).toBe(202);
    const { buildId } = (await called.json()) as { buildId: string };
    const build = await untilFinished(buildId);
    expect(build, (await logOf(buildId)).join('\n')).toMatchObject({
      state: 'succeeded',
      trigger: 'hook',
      triggeredBy: "the build hook 'CMS'",
    });
    expect(build.phases[1]).toMatchObject({ name: 'restoreCache', state: 'succeeded' });
    expect(await page()).toContain('<p>build 2</p>');

    expect((await fetch(`${server.url}/api/v1/build-hooks/${'x'.repeat(43)}`, { method: 'POST' })).status).toBe(404);
    expectStatus(await owner.delete(`${base}/build-hooks/${hook._id}`), 204);
    expect((await fetch(hook.url, { method: 'POST' })).status).toBe(404);
  });

  it('fails a build whose command fails, says why, and keeps the site as it was', async () => {
    await git.commit('main', 'Break the build', { 'build.mjs': 'process.exit(3)' });
    const queued = expectStatus(await owner.post(`${base}/builds`, { gitBranch: 'main' }), 201);
    const build = await untilFinished(queued._id);
    expect(build).toMatchObject({ state: 'failed', error: 'The build command exited with code 3', releaseId: null });
    expect(build.phases.at(-1)).toMatchObject({ name: 'build', state: 'failed' });
    expect(await page()).toContain('<p>build 2</p>');
    const audit = expectStatus(await owner.get(`/api/v1/orgs/${world.org._id}/audit?event=site_build_failed`), 200);
    expect(audit.items[0].summary).toMatch(
      /The build of the branch 'main' \([0-9a-f]{7}\) of .* failed: The build command exited with code 3/,
    );

    const retried = expectStatus(await owner.post(`${base}/builds/${firstBuild._id}/retry`), 201);
    expect(retried).toMatchObject({ trigger: 'retry', retryOf: firstBuild._id, source: { commit: firstCommit } });
    const rebuilt = await untilFinished(retried._id);
    expect(rebuilt.state, (await logOf(retried._id)).join('\n')).toBe('succeeded');
    expect(rebuilt.source.commit).toBe(firstCommit);
    // The failed build kept the dependencies it installed: the retry starts from them.
    expect(rebuilt.phases[1]).toMatchObject({ name: 'restoreCache', state: 'succeeded' });
    expect(await page()).toContain('<p>build 3</p>');
  });

  it('cancels a running build: its container is removed at once', async () => {
    await git.commit('main', 'A slow build', { 'build.mjs': 'console.log("waiting"); setTimeout(() => {}, 600000);' });
    const queued = expectStatus(await owner.post(`${base}/builds`, {}), 201);
    for (;;) {
      const log = await logOf(queued._id);
      if (log.includes('waiting')) break;
      await sleep(200);
    }
    const cancelled = expectStatus(await owner.post(`${base}/builds/${queued._id}/cancel`), 200);
    expect(cancelled._id).toBe(queued._id);
    const build = await untilFinished(queued._id);
    expect(build).toMatchObject({ state: 'cancelled', error: 'Cancelled' });
    expect(await podman('ps', '--all', '--filter', `name=wharf-build-${queued._id}`, '--format', '{{.Names}}')).toBe(
      '',
    );
    expect(expectStatus(await owner.post(`${base}/builds/${queued._id}/cancel`), 409).code).toBe('BUILD_FINISHED');
  });

  it('lists the builds newest first, and lets only those who manage the site start one', async () => {
    const list = expectStatus(await owner.get(`${base}/builds?size=2`), 200);
    expect(list.count).toBe(5);
    expect(list.items.map((build: { state: string }) => build.state)).toEqual(['cancelled', 'succeeded']);
    expect(expectStatus(await world.clients.member.post(`${base}/builds`, {}), 403).code).toBe('ROLE_INSUFFICIENT');
    expect(expectStatus(await world.clients.outsider.get(`${base}/builds`), 404).code).toBe('SITE_NOT_FOUND');
  });
  it('streams a build’s log as it is written, to those who may see the site and nobody else', async () => {
    await git.commit('main', 'A chatty build', {
      'build.mjs': `
import { mkdirSync, writeFileSync } from 'node:fs';
for (let line = 1; line <= 5; line++) {
  console.log('line ' + line);
  await new Promise((resolve) => setTimeout(resolve, 300));
}
mkdirSync('dist', { recursive: true });
writeFileSync('dist/index.html', '<p>chatty</p>');
`,
    });
    const ownerSocket = await connectRealtime(server.url, owner.cookieHeader);
    const outsiderSocket = await connectRealtime(server.url, world.clients.outsider.cookieHeader);
    try {
      const queued = expectStatus(await owner.post(`${base}/builds`, {}), 201);
      const join = (socket: Socket) =>
        new Promise<{ ok: boolean }>((resolve) => socket.emit('join', { room: 'build', id: queued._id }, resolve));
      expect(await join(outsiderSocket)).toMatchObject({ ok: false });
      const heard: BuildLogLine[] = [];
      const outsiderHeard: unknown[] = [];
      outsiderSocket.on('buildLog', (message) => outsiderHeard.push(message));
      ownerSocket.on('buildLog', (message: BuildLogMessage) => {
        expect(message.buildId).toBe(queued._id);
        heard.push(...message.lines);
      });
      expect(await join(ownerSocket)).toEqual({ ok: true });
      // Heard while the build still runs: the lines come as they are written, not at the end.
      await expect.poll(() => heard.map((line) => line.text), { timeout: 60_000 }).toContain('line 1');
      expect(expectStatus(await owner.get(`${base}/builds/${queued._id}`), 200).state).toBe('running');
      const build = await untilFinished(queued._id);
      expect(build.state).toBe('succeeded');
      await expect
        .poll(() => heard.map((line) => line.text), { timeout: 10_000 })
        .toContain(`Published to ${world.site.url}`);
      // In order, without a gap, once each: what the API keeps of the same lines.
      const seqs = heard.map((line) => line.seq);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      expect(new Set(seqs).size).toBe(seqs.length);
      const kept = expectStatus(await owner.get(`${base}/builds/${queued._id}/log?after=${seqs[0]}`), 200);
      expect(kept.finished).toBe(true);
      expect(kept.lines.map((line: BuildLogLine) => line.text)).toEqual(heard.map((line) => line.text));
      expect(outsiderHeard).toEqual([]);
    } finally {
      ownerSocket.disconnect();
      outsiderSocket.disconnect();
    }
  });
});

describe('builds on an installation without a container runtime', () => {
  let server: TestServer;
  let world: World;
  beforeAll(async () => {
    server = await startTestServer();
    world = await buildWorld(server.url);
  });
  afterAll(() => server?.close());

  it('refuses to build, and says the operator has not configured any', async () => {
    const base = `/api/v1/sites/${world.site._id}`;
    const owner = world.clients.owner;
    expectStatus(
      await owner.put(`${base}/repository`, { url: 'https://git.example.test/shop.git', productionBranch: 'main' }),
      200,
    );
    const refused = expectStatus(await owner.post(`${base}/builds`, {}), 409);
    expect(refused).toMatchObject({ code: 'BUILDS_OFF' });
    expect(expectStatus(await owner.get(`${base}/builds`), 200)).toEqual({ items: [], count: 0 });
  });
});
