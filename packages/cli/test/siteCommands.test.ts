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
    expect(text.stdout).toMatch(/^release\s+id\s+date\s+served by\n/);
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
