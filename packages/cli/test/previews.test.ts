import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { siteRequest } from '../../server/test/siteClient.ts';
import { siteFolder } from './siteFolder.ts';
import { type StatusPeer, startStatusPeer } from './statusPeer.ts';
import { startUploadWorld, type UploadWorld } from './uploadWorld.ts';
import { runWharf } from './wharfProcess.ts';

let world: UploadWorld;
let forge: StatusPeer;
beforeAll(async () => {
  world = await startUploadWorld();
  forge = await startStatusPeer('forge-token');
});
afterAll(async () => {
  await forge?.close();
  await world?.server.close();
});
beforeEach(() => {
  forge.statuses.length = 0;
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
});
