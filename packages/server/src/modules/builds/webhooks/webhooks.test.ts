import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, type TestClient } from '../../../../test/client.ts';
import { deliveryHeaders, type ForgeKind } from '../../../../test/gitServer.ts';
import { databases, startTestServer, type TestServer } from '../../../../test/harness.ts';
import { buildWorld, uploadRelease, type World } from '../../../../test/world.ts';

const MAIN_HEAD = '9f1c3d5e7a9b1c3d5e7a9b1c3d5e7a9b1c3d5e7a';
const FEATURE_HEAD = '1a2b3c4d5e6f1a2b3c4d5e6f1a2b3c4d5e6f1a2b';
const ZEROS = '0'.repeat(40);

/** A push as GitHub and Gitea describe it: the ref, the head commit, who pushed. */
function githubPush(branch: string, after: string, message = 'Update the docs') {
  return {
    ref: `refs/heads/${branch}`,
    before: 'e'.repeat(40),
    after,
    deleted: after === ZEROS,
    head_commit:
      after === ZEROS
        ? null
        : {
            id: after,
            message,
            url: `https://github.com/acme/shop/commit/${after}`,
            author: { name: 'Grace Hopper', email: 'grace@example.test', username: 'grace' },
          },
    pusher: { name: 'grace', email: 'grace@example.test' },
    repository: { full_name: 'acme/shop' },
  };
}

/** A push as GitLab describes it: the commits listed, the user who pushed. */
function gitlabPush(branch: string, after: string) {
  return {
    object_kind: 'push',
    ref: `refs/heads/${branch}`,
    before: 'e'.repeat(40),
    after,
    checkout_sha: after,
    user_username: 'ada',
    commits: [
      { id: 'f'.repeat(40), message: 'An older commit', author: { name: 'Ada', email: 'ada@example.test' } },
      {
        id: after,
        message: 'Newest commit\n',
        url: `https://gitlab.example.test/acme/shop/-/commit/${after}`,
        author: { name: 'Ada Lovelace', email: 'ada@example.test' },
      },
    ],
  };
}

function githubPullRequest(action: string, number: number) {
  return {
    action,
    number,
    pull_request: {
      number,
      html_url: `https://github.com/acme/shop/pull/${number}`,
      title: 'A new look',
      head: { ref: 'feature/new-look', sha: FEATURE_HEAD },
      base: { ref: 'main' },
      merged: action === 'closed',
    },
    sender: { login: 'grace' },
  };
}

describe.each(databases)('webhooks from the forges ($name)', ({ postgres }) => {
  let server: TestServer;
  let world: World;
  let owner: TestClient;
  let site: string;
  let webhookUrl: string;
  let secret: string;

  /** Sends a delivery as `forge` sends `event`, signed with `signingSecret`. */
  async function deliver(forge: ForgeKind, event: string, payload: unknown, signingSecret = secret) {
    const body = JSON.stringify(payload);
    const headers = deliveryHeaders(forge, signingSecret, event, body);
    const response = await fetch(webhookUrl, { method: 'POST', headers, body });
    return { status: response.status, body: (await response.json()) as Record<string, any>, headers, payload: body };
  }
  const buildOf = async (id: string) => expectStatus(await owner.get(`${site}/builds/${id}`), 200);

  beforeAll(async () => {
    // Builds queue and stay queued: no node here runs them.
    server = await startTestServer({ postgres, env: { WHARF_BUILD_RUNTIME: 'podman', WHARF_ROLE: 'api,edge,worker' } });
    world = await buildWorld(server.url);
    owner = world.clients.owner;
    site = `/api/v1/sites/${world.site._id}`;
    const repository = expectStatus(
      await owner.put(`${site}/repository`, {
        url: 'https://github.com/acme/shop.git',
        productionBranch: 'main',
        branchDeploys: 'listed',
        branches: ['feature/*'],
      }),
      200,
    );
    webhookUrl = repository.webhookUrl;
    expect(webhookUrl).toBe(`${server.url}/api/v1/sites/${world.site._id}/repository/webhook`);
    secret = expectStatus(await owner.get(`${site}/repository/webhook-secret`), 200).secret;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(expectStatus(await world.clients.member.get(`${site}/repository/webhook-secret`), 403).code).toBe(
      'ROLE_INSUFFICIENT',
    );
  });
  afterAll(() => server?.close());

  it('builds a signed push to the production branch from GitHub, with its commit, and refuses it the second time', async () => {
    const sent = await deliver('github', 'push', githubPush('main', MAIN_HEAD));
    expect(sent.status).toBe(202);
    expect(sent.body).toMatchObject({ message: 'Build queued' });
    const build = await buildOf(sent.body.builds[0]);
    expect(build).toMatchObject({
      trigger: 'push',
      triggeredBy: 'grace',
      gitBranch: 'main',
      branch: 'main',
      source: {
        commit: MAIN_HEAD,
        message: 'Update the docs',
        author: 'Grace Hopper <grace@example.test>',
        commitUrl: `https://github.com/acme/shop/commit/${MAIN_HEAD}`,
      },
    });
    // The same body again, even under a new delivery id: a replay.
    const again = await fetch(webhookUrl, {
      method: 'POST',
      headers: { ...sent.headers, 'x-github-delivery': randomUUID() },
      body: sent.payload,
    });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { code: string }).code).toBe('WEBHOOK_REPLAYED');
    const audit = expectStatus(await owner.get(`/api/v1/orgs/${world.org._id}/audit?event=site_build_queued`), 200);
    expect(audit.items[0].summary).toBe(
      `A push to main queued a build of the branch 'main' (9f1c3d5) of ${world.site.name}`,
    );
  });

  it('takes a push of many commits, as large as a forge sends', async () => {
    const files = Array.from({ length: 400 }, (_, index) => `src/components/part-${index}/index.tsx`);
    const commits = Array.from({ length: 200 }, (_, index) => ({
      id: randomHex(),
      message: `Commit ${index}`,
      modified: files,
    }));
    const payload = { ...githubPush('main', 'b'.repeat(40)), commits };
    expect(JSON.stringify(payload).length).toBeGreaterThan(2 * 1024 * 1024);
    expect((await deliver('github', 'push', payload)).status).toBe(202);
  });

  it('refuses deliveries without the signature, signed with another secret, or from no forge', async () => {
    const payload = githubPush('main', 'a'.repeat(40));
    expect((await deliver('github', 'push', payload, 'another secret')).body.code).toBe('WEBHOOK_SIGNATURE_INVALID');
    expect((await deliver('gitlab', 'Push Hook', gitlabPush('main', 'b'.repeat(40)), 'guess')).status).toBe(401);
    expect((await deliver('gitea', 'push', payload, 'another secret')).status).toBe(401);
    const unsigned = await fetch(webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-github-event': 'push' },
      body: JSON.stringify(payload),
    });
    expect(unsigned.status).toBe(401);
    const anonymous = await fetch(webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(((await anonymous.json()) as { code: string }).code).toBe('WEBHOOK_UNKNOWN');
    const elsewhere = await fetch(`${server.url}/api/v1/sites/nosuchsite/repository/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-github-event': 'push' },
      body: '{}',
    });
    expect(elsewhere.status).toBe(404);
    const builds = expectStatus(await owner.get(`${site}/builds`), 200);
    expect(builds.count).toBe(2);
  });

  it('builds pushes from GitLab and Gitea as each signs them', async () => {
    const gitlab = await deliver('gitlab', 'Push Hook', gitlabPush('main', 'c'.repeat(40)));
    expect(gitlab.status).toBe(202);
    expect(await buildOf(gitlab.body.builds[0])).toMatchObject({
      triggeredBy: 'ada',
      source: { commit: 'c'.repeat(40), message: 'Newest commit\n', author: 'Ada Lovelace <ada@example.test>' },
    });
    const gitea = await deliver('gitea', 'push', githubPush('main', 'd'.repeat(40), 'From Gitea'));
    expect(gitea.status).toBe(202);
    expect((await buildOf(gitea.body.builds[0])).source.message).toBe('From Gitea');
  });

  it('takes GitHub’s form-encoded delivery (its default content type), signed over the form as sent', async () => {
    const body = new URLSearchParams({ payload: JSON.stringify(githubPush('main', randomHex(), 'Sent as a form')) });
    const form = body.toString();
    const headers = {
      ...deliveryHeaders('github', secret, 'push', form),
      'content-type': 'application/x-www-form-urlencoded',
    };
    const sent = await fetch(webhookUrl, { method: 'POST', headers, body: form });
    expect(sent.status).toBe(202);
    const { builds } = (await sent.json()) as { builds: string[] };
    expect((await buildOf(builds[0]!)).source.message).toBe('Sent as a form');

    const unsigned = { ...headers, 'x-hub-signature-256': `sha256=${'0'.repeat(64)}` };
    const resent = await fetch(webhookUrl, { method: 'POST', headers: unsigned, body: `${form}&x=1` });
    expect(resent.status).toBe(401);
    const noPayload = await fetch(webhookUrl, {
      method: 'POST',
      headers: { ...deliveryHeaders('github', secret, 'push', 'other=1'), 'content-type': headers['content-type'] },
      body: 'other=1',
    });
    expect(((await noPayload.json()) as { code: string }).code).toBe('WEBHOOK_UNKNOWN');
    // Every other route still takes JSON only.
    const settings = await owner.request('PUT', `${site}/repository`, 'url=https://github.com/acme/other.git', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect([settings.status, settings.body.code]).toEqual([415, 'MEDIA_TYPE_UNSUPPORTED']);
  });

  it('skips a push that asks to, a branch the site does not build, and a tag; builds a listed branch', async () => {
    for (const skip of ['Fix typo [skip ci]', 'Draft [wharf skip]'])
      expect((await deliver('github', 'push', githubPush('main', randomHex(), skip))).body).toEqual({
        builds: [],
        message: 'The head commit asks to skip its build',
      });
    expect((await deliver('github', 'push', githubPush('docs/x', randomHex()))).body.message).toBe(
      'The site does not build the branch docs/x',
    );
    const tag = { ...githubPush('main', randomHex()), ref: 'refs/tags/v1.0.0' };
    expect((await deliver('github', 'push', tag)).body.builds).toEqual([]);
    expect((await deliver('github', 'ping', { zen: 'Keep it simple.' })).body.message).toBe(
      'Pong: the webhook reaches Wharf',
    );
    const feature = await deliver('github', 'push', githubPush('feature/new-look', FEATURE_HEAD));
    expect(await buildOf(feature.body.builds[0])).toMatchObject({
      gitBranch: 'feature/new-look',
      branch: 'feature/new-look',
    });
  });

  it('builds an opened pull request as a preview at pr-{number}, and deletes it once closed', async () => {
    const opened = await deliver('github', 'pull_request', githubPullRequest('opened', 7));
    expect(await buildOf(opened.body.builds[0])).toMatchObject({
      trigger: 'pullRequest',
      triggeredBy: 'grace',
      gitBranch: 'feature/new-look',
      branch: 'pr-7',
      source: { commit: FEATURE_HEAD, pullRequest: 7, pullRequestUrl: 'https://github.com/acme/shop/pull/7' },
    });
    const row = await server.app.db
      .selectFrom('builds')
      .select('fetch_ref')
      .where('id', '=', opened.body.builds[0])
      .executeTakeFirstOrThrow();
    expect(row.fetch_ref).toBe('refs/pull/7/head');
    const mergeRequest = await deliver('gitlab', 'Merge Request Hook', {
      object_kind: 'merge_request',
      user: { username: 'ada' },
      object_attributes: {
        iid: 3,
        action: 'open',
        source_branch: 'feature/gitlab',
        url: 'https://gitlab.example.test/acme/shop/-/merge_requests/3',
        last_commit: { id: 'e'.repeat(40) },
      },
    });
    const built = await server.app.db
      .selectFrom('builds')
      .select(['branch', 'fetch_ref'])
      .where('id', '=', mergeRequest.body.builds[0])
      .executeTakeFirstOrThrow();
    expect(built).toEqual({ branch: 'pr-3', fetch_ref: 'refs/merge-requests/3/head' });

    // The preview's branch, as the build would have made it; closing the pull request deletes it.
    await uploadRelease(owner, world.site._id, 'preview of #7', ['pr-7']);
    const closed = await deliver('github', 'pull_request', githubPullRequest('closed', 7));
    expect(closed.body).toEqual({ builds: [], message: 'Deleted the branch pr-7' });
    const branches = expectStatus(await owner.get(`${site}/branches`), 200);
    expect(branches.map((branch: { name: string }) => branch.name)).not.toContain('pr-7');
  });

  it('deletes the branch of a deleted git branch, never the main branch', async () => {
    await uploadRelease(owner, world.site._id, 'feature', ['feature/new-look']);
    const deleted = await deliver('github', 'push', githubPush('feature/new-look', ZEROS));
    expect(deleted.body.message).toBe('Deleted the branch feature/new-look');
    const gitea = await deliver('gitea', 'delete', { ref: 'main', ref_type: 'branch' });
    expect(gitea.body.message).toBe('The production branch is not deleted here');
    expect(expectStatus(await owner.get(site), 200).live).not.toBeNull();
  });

  it('skips a push that changes nothing under the base directory or the watch paths, and builds one it cannot tell', async () => {
    const settings = {
      url: 'https://github.com/acme/shop.git',
      productionBranch: 'main',
      branchDeploys: 'listed',
      branches: ['feature/*'],
    };
    const changing = (...modified: string[]) => ({
      ...githubPush('main', randomHex()),
      commits: [{ id: randomHex(), message: 'Change', added: [], removed: [], modified }],
    });
    const outcome = async (payload: unknown, forge: ForgeKind = 'github') =>
      (await deliver(forge, forge === 'gitlab' ? 'Push Hook' : 'push', payload)).body.message;
    const SKIPPED = 'The push changes nothing the site builds from (its base directory or watch paths)';
    expectStatus(await owner.put(`${site}/repository`, { ...settings, baseDirectory: 'site' }), 200);
    expect(await outcome(changing('README.md', 'api/server.ts'))).toBe(SKIPPED);
    expect(await outcome(changing('README.md', 'site/index.html'))).toBe('Build queued');
    // An empty commit asks for a build again; a push whose commits are not all listed may change anything.
    expect(await outcome(changing())).toBe('Build queued');
    const listed = { id: randomHex(), message: 'One of 40', added: [], removed: [], modified: ['README.md'] };
    const many = { ...gitlabPush('main', randomHex()), total_commits_count: 40, commits: [listed] };
    expect(await outcome(many, 'gitlab')).toBe('Build queued');

    const watchPaths = ['packages/ui', 'docs/**/*.md'];
    expectStatus(await owner.put(`${site}/repository`, { ...settings, baseDirectory: 'site', watchPaths }), 200);
    expect(await outcome(changing('site/index.html'))).toBe(SKIPPED);
    expect(await outcome(changing('packages/ui/button.tsx'))).toBe('Build queued');
    expect(await outcome(changing('docs/guide/start.md'))).toBe('Build queued');
    expect(await outcome(changing('docs/guide/logo.png'))).toBe(SKIPPED);
    for (const bad of ['../etc', '/etc', ''])
      expectStatus(await owner.put(`${site}/repository`, { ...settings, watchPaths: [bad] }), 400);
    expectStatus(await owner.put(`${site}/repository`, settings), 200);
  });

  it('refuses deliveries signed with a replaced secret at once, and takes those signed with the new one', async () => {
    const old = secret;
    expectStatus(await world.clients.member.post(`${site}/repository/webhook-secret`), 403);
    const renewed = expectStatus(await owner.post(`${site}/repository/webhook-secret`), 200);
    expect(renewed.secret).not.toBe(old);
    expect(expectStatus(await owner.get(`${site}/repository/webhook-secret`), 200).secret).toBe(renewed.secret);
    expect((await deliver('github', 'push', githubPush('main', randomHex()), old)).status).toBe(401);
    secret = renewed.secret;
    expect((await deliver('github', 'push', githubPush('main', randomHex()))).status).toBe(202);
  });
});

function randomHex() {
  return randomUUID().replaceAll('-', '').padEnd(40, '0');
}
