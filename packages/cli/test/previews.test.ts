import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { siteRequest } from '@wharf/server/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { siteFolder } from './siteFolder.ts';
import { type StatusPeer, startStatusPeer } from './statusPeer.ts';
import { startUploadWorld, type UploadWorld } from './uploadWorld.ts';
import { runWharf } from './wharfProcess.ts';

let world: UploadWorld;
let forge: StatusPeer;
beforeAll(async () => {
  world = await startUploadWorld();
  // Two comments a page, so that finding Wharf's own comment among others takes paging.
  forge = await startStatusPeer('forge-token', { commentsPerPage: 2 });
});
afterAll(async () => {
  await forge?.close();
  await world?.server.close();
});
beforeEach(() => {
  forge.statuses.length = 0;
  forge.comments.length = 0;
});

const site = () => ({ WHARF_URL: world.server.url, WHARF_SITE: world.siteId, WHARF_TOKEN: world.siteToken });

/** What GitHub Actions sets for a pull_request run (Gitea and Forgejo set the same). */
async function actionsEnv(folder: string, number: number, extra: Record<string, string> = {}) {
  const eventPath = path.join(folder, '..', `event-${number}.json`);
  await writeFile(eventPath, JSON.stringify({ pull_request: { number, head: { sha: 'c0ffee42' } } }));
  return {
    CI: 'true',
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_REF: `refs/pull/${number}/merge`,
    GITHUB_REF_NAME: `${number}/merge`,
    GITHUB_HEAD_REF: 'feature/checkout',
    GITHUB_SHA: 'deadbeef',
    GITHUB_REPOSITORY: 'acme/shop',
    GITHUB_API_URL: forge.url,
    ...extra,
  };
}

async function served(url: string) {
  const port = Number(new URL(world.server.url).port);
  return (await siteRequest(port, new URL(url).host, '/')).text;
}

describe('pull-request previews', () => {
  it('deploys a GitHub pull request to pr-{number} and posts the wharf status with its URL, then the branch goes', async () => {
    const folder = await siteFolder({ 'index.html': '<p>PR 42</p>' });
    const env = { ...site(), ...(await actionsEnv(folder, 42, { GITHUB_TOKEN: 'forge-token' })) };
    const run = await runWharf(['upload', folder, '--json'], { env });
    expect(run.code).toBe(0);
    const result = run.json();
    expect(result.branches.map((branch: { name: string }) => branch.name)).toEqual(['pr-42']);
    expect(result.preview).toEqual({ pullRequest: 42, branch: 'pr-42', statusPosted: true });
    expect(await served(result.branches[0].url)).toBe('<p>PR 42</p>');
    expect(forge.statuses).toEqual([
      {
        path: '/repos/acme/shop/statuses/c0ffee42',
        token: 'forge-token',
        body: expect.objectContaining({ state: 'success', context: 'wharf', target_url: result.branches[0].url }),
      },
    ]);
    const deleted = await runWharf(['branch', 'delete', 'pr-42', '--json'], { env: site() });
    expect(deleted.json()).toMatchObject({ ok: true, deleted: { name: 'pr-42' } });
  });

  it('posts on a GitLab merge request with GitLab’s fields, and on Gitea with its token', async () => {
    const folder = await siteFolder({ 'index.html': '<p>MR</p>' });
    const gitlab = await runWharf(['upload', folder], {
      env: {
        ...site(),
        CI: 'true',
        CI_MERGE_REQUEST_IID: '7',
        CI_COMMIT_REF_NAME: 'feature/cart',
        CI_COMMIT_SHA: 'abc123',
        CI_PROJECT_ID: '1234',
        CI_API_V4_URL: forge.url,
        GITLAB_TOKEN: 'forge-token',
      },
    });
    expect(gitlab.code).toBe(0);
    expect(gitlab.stderr).toContain('the preview of GitLab pull request #7');
    expect(forge.statuses[0]).toMatchObject({
      path: '/projects/1234/statuses/abc123',
      body: { state: 'success', name: 'wharf', target_url: expect.stringContaining('pr-7.') },
    });

    const gitea = await runWharf(['upload', folder], {
      env: { ...site(), ...(await actionsEnv(folder, 9, { GITEA_ACTIONS: 'true', GITEA_TOKEN: 'forge-token' })) },
    });
    expect(gitea.code).toBe(0);
    expect(gitea.stderr).toContain('Posted the commit status "wharf" on Gitea');
    expect(forge.statuses[1]?.path).toBe('/repos/acme/shop/statuses/c0ffee42');
  });

  it('deploys the preview without a status when there is no token, and only warns when the forge refuses', async () => {
    const folder = await siteFolder({ 'index.html': '<p>no token</p>' });
    const quiet = await runWharf(['upload', folder, '--json'], {
      env: { ...site(), ...(await actionsEnv(folder, 5)) },
    });
    expect(quiet.json().preview).toEqual({ pullRequest: 5, branch: 'pr-5' });
    expect(forge.statuses).toEqual([]);

    const refused = await runWharf(['upload', folder], {
      env: { ...site(), ...(await actionsEnv(folder, 6, { GITHUB_TOKEN: 'wrong' })) },
    });
    expect(refused.code).toBe(0);
    expect(refused.stderr).toContain('Could not post the commit status on GitHub: 401');
    // An explicit --branch wins over the pull request.
    const named = await runWharf(['upload', folder, '--branch', 'staging', '--json'], {
      env: { ...site(), ...(await actionsEnv(folder, 8, { GITHUB_TOKEN: 'forge-token' })) },
    });
    expect(named.json().branches[0].name).toBe('staging');
    expect(named.json().preview).toBeUndefined();
  });

  it('with --comment, writes the preview’s address in a comment that later deploys edit in place', async () => {
    // Reviewers spoke first: Wharf's comment is found past the first page of them.
    for (const body of ['Looks good', 'One nit', 'Fixed']) {
      forge.comments.push({ id: forge.comments.length + 1, on: 'acme/shop#11', body, edits: 0 });
    }
    const folder = await siteFolder({ 'index.html': '<p>first</p>' });
    const env = { ...site(), ...(await actionsEnv(folder, 11, { GITHUB_TOKEN: 'forge-token' })) };
    const first = await runWharf(['upload', folder, '--comment', '--release', 'one', '--json'], { env });
    expect(first.json().preview).toEqual({ pullRequest: 11, branch: 'pr-11', statusPosted: true, commentPosted: true });
    const url = first.json().branches[0].url;
    await writeFile(path.join(folder, 'index.html'), '<p>second</p>');
    // The forge's calls go through the CLI's one exchange: Node's fetch stays unloaded (loadProbe.cjs).
    const probe = `--require ${path.join(import.meta.dirname, 'loadProbe.cjs')}`;
    const second = await runWharf(['upload', folder, '--comment', '--release', 'two'], {
      env: { ...env, NODE_OPTIONS: probe },
    });
    expect(second.stderr).toContain("Wrote the preview's address in a comment on pull request #11");
    expect(second.stderr).toContain('fetch loaded: no');

    const ours = forge.comments.filter((comment) => comment.body.includes('<!-- wharf-preview -->'));
    expect(ours).toEqual([expect.objectContaining({ on: 'acme/shop#11', edits: 1 })]);
    expect(ours[0]!.body).toContain(`commit \`c0ffee42\` (release "two"): ${url}`);
    expect(forge.comments).toHaveLength(4);
    expect(await served(url)).toBe('<p>second</p>');
  });

  it('with --comment on GitLab, keeps one note on the merge request; a refused comment only warns', async () => {
    const folder = await siteFolder({ 'index.html': '<p>MR note</p>' });
    const gitlabEnv = (token: string) => ({
      ...site(),
      CI: 'true',
      CI_MERGE_REQUEST_IID: '3',
      CI_COMMIT_SHA: 'abc123',
      CI_PROJECT_ID: '1234',
      CI_API_V4_URL: forge.url,
      GITLAB_TOKEN: token,
    });
    for (const release of ['a', 'b']) {
      // A change in each: a folder the preview serves already would make no release "b".
      await writeFile(path.join(folder, 'index.html'), `<p>MR note ${release}</p>`);
      const run = await runWharf(['upload', folder, '--comment', '--release', release], {
        env: gitlabEnv('forge-token'),
      });
      expect(run.code).toBe(0);
    }
    expect(forge.comments).toEqual([
      expect.objectContaining({ on: '1234!3', edits: 1, body: expect.stringContaining('(release "b"): http') }),
    ]);
    const refused = await runWharf(['upload', folder, '--comment', '--json'], { env: gitlabEnv('wrong') });
    expect(refused.code).toBe(0);
    expect(refused.json().preview).toEqual({
      pullRequest: 3,
      branch: 'pr-3',
      statusPosted: false,
      commentPosted: false,
    });
    expect(refused.stderr).toContain('Could not write the preview comment on GitLab: 401');
  });
});
