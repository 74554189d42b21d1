import path from 'node:path';
import { siteRequest } from '@wharf/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCodes } from '../src/failures.ts';
import { siteFolder } from './siteFolder.ts';
import { startUploadWorld, type UploadWorld } from './uploadWorld.ts';
import { runWharf } from './wharfProcess.ts';

let world: UploadWorld;
beforeAll(async () => {
  world = await startUploadWorld();
});
afterAll(() => world?.server.close());

const connection = () => ['--url', world.server.url, '--site', world.siteId, '--token', world.siteToken];

async function served(url: string) {
  const port = Number(new URL(world.server.url).port);
  return (await siteRequest(port, new URL(url).host, '/')).text;
}

describe('what a CI does with a site token besides uploading', () => {
  it('lists releases, shows what each branch serves, rolls a preview back by name and deletes it', async () => {
    for (const version of ['one', 'two']) {
      const folder = await siteFolder({ 'index.html': `<p>${version}</p>` });
      const upload = await runWharf([
        'upload',
        folder,
        ...connection(),
        '--branch',
        'pr-3',
        '--release',
        `pr-3 ${version}`,
      ]);
      expect(upload.code).toBe(0);
    }
    const list = (await runWharf(['releases', 'list', ...connection(), '--json'])).json();
    expect(list.releases.map((release: { name: string }) => release.name).slice(0, 2)).toEqual([
      'pr-3 two',
      'pr-3 one',
    ]);
    const text = await runWharf(['releases', 'list', ...connection(), '--search', 'one']);
    expect(text.stdout).toMatch(/^release\s+id\s+date\s+served by\s+address\n/);
    expect(text.stdout).toContain('pr-3 one');
    expect(text.stdout).not.toContain('pr-3 two');

    const status = (await runWharf(['status', ...connection(), '--json'])).json();
    const preview = status.branches.find((branch: { name: string }) => branch.name === 'pr-3');
    expect(preview.release.name).toBe('pr-3 two');
    expect((await runWharf(['status', ...connection()])).stdout).toMatch(/^pr-3\s+pr-3 two\s+http/m);

    const rollback = await runWharf(['rollback', ...connection(), '--branch', 'pr-3', '--release', 'pr-3 one']);
    expect(rollback.code).toBe(0);
    expect(rollback.stdout).toContain('The branch pr-3 serves release "pr-3 one"');
    expect(await served(preview.url)).toBe('<p>one</p>');

    const deleted = await runWharf(['branch', 'delete', 'pr-3', ...connection(), '--json']);
    expect(deleted.json()).toMatchObject({ ok: true, deleted: { name: 'pr-3' } });
    const after = (await runWharf(['status', ...connection(), '--json'])).json();
    expect(after.branches.map((branch: { name: string }) => branch.name)).not.toContain('pr-3');
  });

  it('uploads a draft from a CI job, with its source, then publishes it to the main branch', async () => {
    const folder = await siteFolder({ 'index.html': '<p>draft</p>' });
    const commit = { head_commit: { message: 'Price table\n\nNew plans', author: { name: 'Ada' } } };
    const event = path.join(await siteFolder({ 'event.json': JSON.stringify(commit) }), 'event.json');
    const sha = '9fceb02d0ae598e95dc970b74767f19372d61af8';
    const env = {
      GITHUB_ACTIONS: 'true',
      GITHUB_SHA: sha,
      GITHUB_REF_NAME: 'pricing',
      GITHUB_SERVER_URL: 'https://github.com',
      GITHUB_REPOSITORY: 'acme/shop',
      GITHUB_RUN_ID: '4242',
      GITHUB_ACTOR: 'ada-l',
      GITHUB_EVENT_PATH: event,
    };
    const draft = await runWharf(['upload', folder, ...connection(), '--draft', '--release', 'draft 1'], { env });
    expect(draft.code, draft.stderr).toBe(0);
    expect(draft.stdout).toMatch(/^Draft "draft 1" uploaded: 1 file/);
    const address = /this release\s+(\S+)/.exec(draft.stdout)?.[1];
    expect(address).toMatch(/^http:\/\/[0-9a-z]{8}--/);
    expect(await served(address!)).toBe('<p>draft</p>');

    const listed = (await runWharf(['releases', 'list', ...connection(), '--search', 'draft 1', '--json'])).json();
    expect(listed.releases[0]).toMatchObject({
      name: 'draft 1',
      url: address,
      branches: [],
      source: {
        commit: sha,
        message: 'Price table\n\nNew plans',
        branch: 'pricing',
        author: 'Ada',
        commitUrl: `https://github.com/acme/shop/commit/${sha}`,
        ci: 'GitHub Actions',
        ciRunUrl: 'https://github.com/acme/shop/actions/runs/4242',
      },
    });

    const published = await runWharf(['publish', 'draft 1', ...connection(), '--json']);
    expect(published.code, published.stdout).toBe(0);
    const branch = published.json().branch;
    expect(branch.name).toBe('main');
    expect(await served(branch.url)).toBe('<p>draft</p>');
    expect(await served(address!)).toBe('<p>draft</p>');

    const both = await runWharf(['upload', folder, ...connection(), '--draft', '--branch', 'main']);
    expect(both.code).toBe(exitCodes.usage);
  });

  it('refuses what it cannot do, with the documented exit codes', async () => {
    const main = await runWharf(['branch', 'delete', 'main', ...connection()]);
    expect(main.code).toBe(exitCodes.refused);
    expect(main.stderr).toContain('main branch cannot be deleted');
    const missing = await runWharf(['branch', 'delete', 'nope', ...connection(), '--json']);
    expect(missing.json()).toMatchObject({
      ok: false,
      exitCode: exitCodes.refused,
      error: 'The site has no branch named nope',
    });
    const unknownRelease = await runWharf(['rollback', ...connection(), '--branch', 'main', '--release', 'never made']);
    expect(unknownRelease.code).toBe(exitCodes.refused);
    const badToken = await runWharf([
      'status',
      '--url',
      world.server.url,
      '--site',
      world.siteId,
      '--token',
      'wharf_site_nope',
    ]);
    expect(badToken.code).toBe(exitCodes.badToken);
    expect((await runWharf(['rollback', ...connection(), '--branch', 'main'])).code).toBe(exitCodes.usage);
    expect((await runWharf(['status', '--site', world.siteId])).code).toBe(exitCodes.usage);
  });
});
