import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuildStage, siteFiles, startBuildStage } from '../../../test/buildStage.ts';
import { expectStatus, type TestClient } from '../../../test/client.ts';
import { deliverAsGitHub, type GitServer } from '../../../test/gitServer.ts';
import type { TestServer } from '../../../test/harness.ts';
import { podmanWorks } from '../../../test/podman.ts';
import { siteRequest } from '../../../test/siteClient.ts';

const works = podmanWorks();
if (!works) console.warn('!! The builds suite needs podman (apt-get install podman runc slirp4netns): SKIPPED');

/** Where a build takes its settings and code from besides the site's settings: variables, pull requests, `.wharf.yml`. */
describe.skipIf(!works)('what a build is given: variables, a pull request’s head, the commit’s build settings', () => {
  let stage: BuildStage;
  let git: GitServer;
  let server: TestServer;
  let owner: TestClient;
  let base: string;
  let siteHost: string;
  const untilFinished = (buildId: string) => stage.untilFinished(buildId);
  const logOf = (buildId: string) => stage.logOf(buildId);
  const page = () => stage.page();
  /** The text of the forge's Wharf comment once `matches` holds of it (ten seconds at most). */
  async function untilComment(matches: (text: string) => boolean) {
    for (let tries = 0; tries < 100; tries++) {
      const text = [...git.forge.comments.values()].at(-1);
      if (text && matches(text)) return text;
      await sleep(100);
    }
    throw new Error(`no such comment among: ${[...git.forge.comments.values()].join('\n---\n')}`);
  }

  beforeAll(async () => {
    stage = await startBuildStage('sources');
    ({ git, server, owner, base, siteHost } = stage);
    const port = Number(new URL(server.url).port);
    // The main branch serves a first build, as a site that builds already would.
    await git.commit('main', 'First page', siteFiles(port, 'First page'));
    const first = await untilFinished(expectStatus(await owner.post(`${base}/builds`, {}), 201)._id);
    expect(first.state, (await logOf(first._id)).join('\n')).toBe('succeeded');
  }, 25 * 60_000);
  afterAll(() => stage?.close());

  it('gives a build the site’s variables of its context, with secrets masked in its log', async () => {
    const secret = 'tok_9f8e7d6c5b4a';
    const variable = (body: Record<string, unknown>) => owner.post(`${base}/build-variables`, body);
    expectStatus(await variable({ key: 'API_URL', value: 'https://api.example.test', context: 'all' }), 201);
    expectStatus(await variable({ key: 'TOKEN', value: secret, secret: true, context: 'production' }), 201);
    await git.commit('main', 'Use the variables', {
      'build.mjs': `
import { mkdirSync, writeFileSync } from 'node:fs';
console.log('API_URL=' + process.env.API_URL + ' TOKEN=' + process.env.TOKEN + ' context=' + process.env.WHARF_CONTEXT);
mkdirSync('dist', { recursive: true });
writeFileSync('dist/index.html', '<p>' + [...process.env.TOKEN].reverse().join('') + '</p>');
`,
    });
    const queued = expectStatus(await owner.post(`${base}/builds`, {}), 201);
    const build = await untilFinished(queued._id);
    const log = await logOf(queued._id);
    expect(build.state, log.join('\n')).toBe('succeeded');
    expect(log).toContain('API_URL=https://api.example.test TOKEN=•••••• context=production');
    expect(log.join('\n')).not.toContain(secret);
    expect(await page()).toContain(`<p>${[...secret].reverse().join('')}</p>`);
  });
  it('builds a pull request the forge tells of as a preview at pr-{number}, reports it there, and deletes it once closed', async () => {
    const port = Number(new URL(server.url).port);
    let head = await git.commit('feature/new-look', 'A new look', siteFiles(port, 'The new look'));
    await git.setRef('refs/pull/1/head', 'feature/new-look');
    const { secret } = expectStatus(await owner.get(`${base}/repository/webhook-secret`), 200);
    expectStatus(await owner.put(`${base}/repository/forge-token`, { token: git.forge.token }), 200);
    const deliver = async (action: string) => {
      const pullRequest = {
        action,
        number: 1,
        pull_request: {
          html_url: 'https://git.example.test/acme/shop/pull/1',
          head: { ref: 'feature/new-look', sha: head },
        },
        sender: { login: 'grace' },
        ...git.forge.payloadOf('github'),
      };
      const { status, answer } = await deliverAsGitHub(
        `${server.url}${base}/repository/webhook`,
        secret,
        'pull_request',
        pullRequest,
      );
      expect(status).toBe(202);
      return answer;
    };
    const opened = await deliver('opened');
    const build = await untilFinished(opened.builds[0]!);
    expect(build, (await logOf(build._id)).join('\n')).toMatchObject({
      state: 'succeeded',
      branch: 'pr-1',
      source: { commit: head, pullRequest: 1 },
    });
    const preview = await siteRequest(port, `pr-1.${siteHost}`, '/');
    expect(preview.text).toContain('<h1>The new look</h1>');
    expect(await page()).not.toContain('The new look');

    // The forge hears of it: the commit's status links to the preview, and one comment gives its address.
    const branches = expectStatus(await owner.get(`${base}/branches`), 200);
    const previewUrl = branches.find((branch: { name: string }) => branch.name === 'pr-1').url;
    const comment = await untilComment((text) => text.includes(head.slice(0, 7)));
    expect(comment).toContain(`the preview of **${stage.world.site.name}** is ready: ${previewUrl}`);
    const statuses = git.forge.calls.filter((call) => call.path.endsWith(`/statuses/${head}`));
    expect(statuses.at(-1)?.body).toMatchObject({ state: 'success', target_url: previewUrl });

    // A new commit that breaks the build: the same comment says why, not a second one.
    head = await git.commit('feature/new-look', 'Break the look', { 'build.mjs': 'process.exit(3)' });
    await git.setRef('refs/pull/1/head', 'feature/new-look');
    expect((await untilFinished((await deliver('synchronize')).builds[0]!)).state).toBe('failed');
    expect(await untilComment((text) => text.includes(head.slice(0, 7)))).toContain(
      `failed to build from ${head.slice(0, 7)}: \`The build command exited with code 3\``,
    );
    const failed = git.forge.calls.filter((call) => call.path.endsWith(`/statuses/${head}`));
    expect(failed.at(-1)?.body).toMatchObject({
      state: 'failure',
      description: 'Failed: The build command exited with code 3',
    });
    expect(git.forge.comments.size).toBe(1);
    expect(git.forge.calls.filter((call) => call.method === 'PATCH')).toHaveLength(1);

    expect(await deliver('closed')).toEqual({ builds: [], message: 'Deleted the branch pr-1' });
    const after = expectStatus(await owner.get(`${base}/branches`), 200);
    expect(after.map((branch: { name: string }) => branch.name)).not.toContain('pr-1');
  });

  it('builds as the build section of the commit’s .wharf.yml says, over the site’s settings, and fails on one it cannot use', async () => {
    await git.commit('main', 'Build with the file', {
      '.wharf.yml': 'build:\n  command: node other.mjs\n  publish: public\n',
      'other.mjs': `
import { mkdirSync, writeFileSync } from 'node:fs';
mkdirSync('public', { recursive: true });
writeFileSync('public/index.html', '<p>from the file</p>');
`,
    });
    const built = await untilFinished(expectStatus(await owner.post(`${base}/builds`, {}), 201)._id);
    const log = await logOf(built._id);
    expect(built.state, log.join('\n')).toBe('succeeded');
    expect(log).toContain('.wharf.yml sets command: node other.mjs, publish: public');
    expect(await page()).toContain('<p>from the file</p>');

    await git.commit('main', 'A file that leaves the repository', { '.wharf.yml': 'build:\n  publish: ../../etc\n' });
    const refused = await untilFinished(expectStatus(await owner.post(`${base}/builds`, {}), 201)._id);
    expect(refused).toMatchObject({
      state: 'failed',
      error: '.wharf.yml: build.publish: Must stay inside the repository',
    });
    await git.commit('main', 'An image the installation does not allow', {
      '.wharf.yml': 'build:\n  image: evil/miner:1\n',
    });
    const image = await untilFinished(expectStatus(await owner.post(`${base}/builds`, {}), 201)._id);
    expect(image.error).toBe('The image evil/miner:1 is not allowed on this installation (WHARF_BUILD_IMAGES)');
    expect(await page()).toContain('<p>from the file</p>');
  });
});
