import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, type TestClient } from '../../../../test/client.ts';
import {
  connectToGitServer,
  deliverAs,
  type ForgeKind,
  type GitServer,
  startGitServer,
} from '../../../../test/gitServer.ts';
import { databases, startTestServer, type TestServer } from '../../../../test/harness.ts';
import { buildWorld, type World } from '../../../../test/world.ts';
import { enqueueJob } from '../../../jobs/queue.ts';

const HEAD = '3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d';

/** A pull or merge request opened, as each forge tells of it, naming the stand-in's API. */
function opened(forge: ForgeKind, git: GitServer, number: number, repository: object = git.forge.payloadOf(forge)) {
  if (forge === 'gitlab')
    return {
      object_kind: 'merge_request',
      user: { username: 'ada' },
      object_attributes: { iid: number, action: 'open', source_branch: 'feature/x', last_commit: { id: HEAD } },
      ...repository,
    };
  return {
    action: 'opened',
    number,
    pull_request: { number, head: { ref: 'feature/x', sha: HEAD } },
    sender: { login: 'grace' },
    ...repository,
  };
}

const EVENTS = { github: 'pull_request', gitea: 'pull_request', gitlab: 'Merge Request Hook' };

describe.each(databases)('builds report to the forge ($name)', ({ postgres }) => {
  let git: GitServer;
  let server: TestServer;
  let world: World;
  let owner: TestClient;
  let base: string;
  let secret: string;

  /** Queues a build of a pull request as `forge` asks, and cancels it: the state the forge hears of. */
  async function cancelledBuild(forge: ForgeKind, number: number, payload = opened(forge, git, number)) {
    const url = `${server.url}${base}/repository/webhook`;
    const { answer } = await deliverAs(forge, url, secret, EVENTS[forge], payload);
    const buildId = answer.builds[0]!;
    expectStatus(await owner.post(`${base}/builds/${buildId}/cancel`), 200);
    return buildId;
  }
  /** Waits for the forge to hear `count` calls, or for the repository to say its report failed. */
  async function untilHeard(forge: ForgeKind, count: number) {
    for (let tries = 0; tries < 100 && git.forge.callsOf(forge).length < count; tries++) await sleep(100);
    return git.forge.callsOf(forge);
  }
  const repository = async () => expectStatus(await owner.get(`${base}/repository`), 200);

  beforeAll(async () => {
    git = await startGitServer('site');
    // Builds queue and stay queued (no builder here); the forge is on loopback, as the repository is.
    server = await startTestServer({
      postgres,
      env: {
        WHARF_BUILD_RUNTIME: 'podman',
        WHARF_ROLE: 'api,edge,worker',
        WHARF_BUILD_ALLOWED_PRIVATE: '127.0.0.1',
        WHARF_EXTRA_CA_CERTS: git.caFile,
      },
    });
    world = await buildWorld(server.url);
    owner = world.clients.owner;
    base = `/api/v1/sites/${world.site._id}`;
    ({ secret } = await connectToGitServer(owner, world.site._id, git));
  });
  afterAll(async () => {
    await server?.close();
    await git?.close();
  });

  it('reports nothing without a forge token', async () => {
    await cancelledBuild('github', 1);
    await sleep(500);
    expect(git.forge.calls).toEqual([]);
    expect(await repository()).toMatchObject({ forgeToken: false, reportError: null });
  });

  it.each([
    ['github', '/api/v3/repos/acme/site', { state: 'error', context: expect.stringMatching(/^wharf\//) }],
    ['gitea', '/api/v1/repos/acme/site', { state: 'error', context: expect.stringMatching(/^wharf\//) }],
    ['gitlab', '/api/v4/projects/42', { state: 'canceled', name: expect.stringMatching(/^wharf\//) }],
  ] as const)(
    'sets the commit status on %s, in its own words, with the token as a bearer',
    async (forge, api, words) => {
      const saved = expectStatus(await owner.put(`${base}/repository/forge-token`, { token: git.forge.token }), 200);
      expect(saved).toMatchObject({ forgeToken: true });
      expect(JSON.stringify(saved)).not.toContain(git.forge.token);
      const buildId = await cancelledBuild(forge, 2);
      const [call] = await untilHeard(forge, 1);
      expect(call).toMatchObject({
        method: 'POST',
        path: `${api}/statuses/${HEAD}`,
        authorization: `Bearer ${git.forge.token}`,
        body: {
          ...words,
          description: 'Cancelled',
          target_url: `${server.url}/sites/${world.site._id}/builds/${buildId}`,
        },
      });
    },
  );

  it('says in the settings why a report failed, tries no more on a refusal, and forgets it with a new token', async () => {
    expectStatus(await owner.put(`${base}/repository/forge-token`, { token: 'revoked-token' }), 200);
    const before = git.forge.callsOf('github').length;
    await cancelledBuild('github', 3);
    await untilHeard('github', before + 1);
    for (let tries = 0; tries < 50 && !(await repository()).reportError; tries++) await sleep(100);
    expect((await repository()).reportError.message).toBe('GitHub answered 401: Bad credentials to the commit status');
    await sleep(1500);
    expect(git.forge.callsOf('github')).toHaveLength(before + 1);
    expectStatus(await owner.put(`${base}/repository/forge-token`, { token: git.forge.token }), 200);
    expect((await repository()).reportError).toBeNull();
  });

  it('sends the token nowhere but where the repository is, whatever a delivery names', async () => {
    const elsewhere = { repository: { full_name: 'acme/site', url: 'https://api.elsewhere.example/repos/acme/site' } };
    const before = git.forge.calls.length;
    await cancelledBuild('github', 4, opened('github', git, 4, elsewhere));
    for (let tries = 0; tries < 50 && !(await repository()).reportError; tries++) await sleep(100);
    expect((await repository()).reportError.message).toMatch(
      /^The forge's API at api\.elsewhere\.example is not where the repository is \(127\.0\.0\.1\)/,
    );
    expect(git.forge.calls).toHaveLength(before);
  });

  it('writes one comment when two reports of a build’s end run at once (a job sent twice after a crash)', async () => {
    expectStatus(await owner.put(`${base}/repository/forge-token`, { token: git.forge.token }), 200);
    const buildId = await cancelledBuild('gitea', 6);
    const { db } = server.app;
    await db
      .updateTable('builds')
      .set({ state: 'failed', error: 'The build command exited with code 2' })
      .where('id', '=', buildId)
      .execute();
    const comments = git.forge.comments.size;
    const isComment = (call: { method: string; path: string }) =>
      /\/issues\/(6\/comments|comments\/\d+)$/.test(call.path);
    // The forge answers the first new comment slowly: the second report comes while it is written.
    const release = git.forge.holdNewComments();
    await db.transaction().execute(async (trx) => {
      for (let twice = 0; twice < 2; twice++)
        await enqueueJob(trx, { kind: 'forgeReport', payload: { buildId, event: 'site_build_failed' } });
    });
    for (let tries = 0; tries < 50 && git.forge.callsOf('gitea').filter(isComment).length < 1; tries++)
      await sleep(100);
    await sleep(1000);
    release();
    // One writes the comment; the other waits for it, then edits it.
    for (let tries = 0; tries < 150 && git.forge.callsOf('gitea').filter(isComment).length < 2; tries++)
      await sleep(100);
    const commentCalls = git.forge.callsOf('gitea').filter(isComment);
    expect(commentCalls.map((call) => call.method)).toEqual(['POST', 'PATCH']);
    expect(git.forge.comments.size).toBe(comments + 1);
  });

  it('forgets the token on request, and only those who manage the site may set it', async () => {
    expectStatus(await world.clients.member.put(`${base}/repository/forge-token`, { token: 'x' }), 403);
    expect(expectStatus(await owner.put(`${base}/repository/forge-token`, { token: 'two words' }), 400).code).toBe(
      'VALIDATION_FAILED',
    );
    expect(expectStatus(await owner.delete(`${base}/repository/forge-token`), 200)).toMatchObject({
      forgeToken: false,
    });
    const before = git.forge.calls.length;
    await cancelledBuild('gitlab', 5);
    await sleep(500);
    expect(git.forge.calls).toHaveLength(before);
  });
});
