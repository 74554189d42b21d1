import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
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
afterAll(() => world.server.close());

/** Uploads a folder with the real CLI to a branch of its own; a hung upload fails the test by its timeout. */
const upload = (folder: string, branch: string, ...flags: string[]) =>
  runWharf(
    [
      'upload',
      folder,
      ...['--url', world.server.url, '--site', world.siteId, '--token', world.siteToken],
      ...['--branch', branch, '--json', ...flags],
    ],
    { env: { WHARF_HASH_CACHE: 'off' } },
  );

/**
 * What a branch serves at a release path, asked with each segment percent-encoded as a browser
 * would, following the redirect of `page.html` to its pretty URL.
 */
async function served(branchUrl: string, releasePath: string) {
  const port = Number(new URL(world.server.url).port);
  const host = new URL(branchUrl).host;
  let answer = await siteRequest(port, host, `/${releasePath.split('/').map(encodeURIComponent).join('/')}`);
  if (answer.status === 308) answer = await siteRequest(port, host, String(answer.headers.location));
  return { status: answer.status, body: answer.body };
}

/** Dotfiles are uploaded with the release but never served (README, "What visitors get"). */
const isServed = (releasePath: string) => !releasePath.split('/').some((segment) => segment.startsWith('.'));

/** Every file of a folder by its release path, read from disk. */
function filesUnder(root: string, prefix = ''): [string, Buffer][] {
  return readdirSync(path.join(root, prefix), { withFileTypes: true }).flatMap((entry) => {
    const releasePath = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return filesUnder(root, releasePath);
    return [[releasePath, readFileSync(path.join(root, releasePath))] as [string, Buffer]];
  });
}

/** Uploads `folder`, then checks that every file of it is served byte for byte. */
async function expectDeployedWhole(folder: string, branch: string) {
  const run = await upload(folder, branch);
  expect(run.stderr).not.toContain('trying again');
  expect(run.code).toBe(0);
  const result = run.json();
  const files = filesUnder(folder);
  expect(result.release.fileCount).toBe(files.length);
  for (const [releasePath, content] of files.filter(([releasePath]) => isServed(releasePath))) {
    const answer = await served(result.branches[0].url, releasePath);
    expect({ releasePath, status: answer.status }).toEqual({ releasePath, status: 200 });
    expect(answer.body.equals(content), `${releasePath} is served as it is on disk`).toBe(true);
  }
  return result;
}

const kib = (n: number, fill: string) => Buffer.alloc(n * 1024, fill);

describe('wharf upload of folders of every shape, against a real server', () => {
  it('deploys a folder holding an empty file, as static site generators leave .nojekyll', async () => {
    const folder = await siteFolder({ 'one.txt': 'one', 'empty.txt': '', '.nojekyll': '' });
    const result = await expectDeployedWhole(folder, 'empty');
    expect(result.uploaded).toEqual({ files: 2, bytes: 3 });
  });

  it('deploys a folder of only empty files', async () => {
    const folder = await siteFolder({ 'a.txt': '', 'b/c.txt': '', 'robots.txt': '' });
    await expectDeployedWhole(folder, 'only-empty');
  });

  it('deploys files whose names are not ASCII, in both Unicode forms of one name, or hold spaces, #, ? and %', async () => {
    const folder = await siteFolder({
      '日本.txt': 'nihon',
      ['café.html'.normalize('NFC')]: 'composed',
      ['café.html'.normalize('NFD')]: 'decomposed',
      'with space.html': 'space',
      '#hash.txt': 'hash',
      'why?.txt': 'question',
      '100%.txt': 'percent',
      '%41.txt': 'not an A',
    });
    await expectDeployedWhole(folder, 'names');
  });

  it('deploys a batch mixing empty, small and large files, files too large for a batch, and more files than a batch holds', async () => {
    const pages = Object.fromEntries(Array.from({ length: 300 }, (_, n) => [`pages/${n}.html`, `<p>${n}</p>`]));
    const folder = await siteFolder({
      ...pages,
      'empty.txt': '',
      // Above the server's in-memory entry size (1 MB), inside the CLI's batch size (4 MB).
      'large.bin': kib(1536, 'l'),
      // Above the CLI's batch size: sent on its own.
      'video.bin': kib(5 * 1024, 'v'),
    });
    await expectDeployedWhole(folder, 'shapes');
  });

  it('follows links to files and folders inside the folder', async () => {
    const folder = await siteFolder({ 'shared/logo.svg': '<svg/>' });
    await symlink(path.join(folder, 'shared/logo.svg'), path.join(folder, 'logo.svg'));
    await symlink('shared', path.join(folder, 'alias'));
    const result = (await upload(folder, 'links')).json();
    expect(result.release.fileCount).toBe(3);
    expect((await served(result.branches[0].url, 'alias/logo.svg')).body.toString()).toBe('<svg/>');
  });

  it('refuses a link that leads outside the folder, and uploads nothing', async () => {
    const outside = await siteFolder({ id_ed25519: 'a private key' });
    const folder = await siteFolder({ 'index.html': '<h1>Site</h1>' });
    await symlink(path.join(outside, 'id_ed25519'), path.join(folder, 'key.txt'));
    const run = await upload(folder, 'outside');
    expect(run.code).toBe(exitCodes.badFolder);
    expect(run.json()).toMatchObject({ ok: false, error: expect.stringContaining('key.txt is a link to') });
    expect(run.json().error).toContain('only what is inside the folder');
  });

  it('says a folder is unchanged when the branch serves it already, and makes a release with --force', async () => {
    const folder = await siteFolder({ 'index.html': '<h1>Run again</h1>', _redirects: '/old /new 301\n' });
    const first = (await upload(folder, 'rerun')).json();
    expect(first).toMatchObject({ ok: true, unchanged: false });
    const again = await upload(folder, 'rerun');
    expect(again.json()).toMatchObject({ ok: true, unchanged: true, release: { _id: first.release._id } });
    const text = await runWharf(
      [
        'upload',
        folder,
        '--url',
        world.server.url,
        '--site',
        world.siteId,
        '--token',
        world.siteToken,
        '--branch',
        'rerun',
      ],
      { env: { WHARF_HASH_CACHE: 'off' } },
    );
    expect(text.stdout).toContain('unchanged: the branches already serve these 2 files');
    const forced = (await upload(folder, 'rerun', '--force')).json();
    expect(forced).toMatchObject({ ok: true, unchanged: false });
    expect(forced.release._id).not.toBe(first.release._id);
  });

  // Build folders that no one here wrote, as npm ships them: an API explorer and a presentation site.
  // Their folders as installed, found as Node finds packages (neither exports its package.json).
  const installed = (name: string) =>
    createRequire(import.meta.url)
      .resolve.paths(name)
      ?.map((modules) => path.join(modules, name))
      .find((folder) => existsSync(folder)) ?? name;
  const shipped = ['swagger-ui-dist', 'reveal.js'].map((name) => ({ name, folder: installed(name) }));

  it.each(shipped)(
    'deploys $name as npm ships it, byte for byte, then again without sending a file',
    async ({ name, folder }) => {
      const branch = name.replace(/\W/g, '-');
      const fresh = await expectDeployedWhole(folder, branch);
      expect(fresh.uploaded.files).toBeGreaterThan(0);
      const again = await upload(folder, `${branch}-again`);
      expect(again.code).toBe(0);
      expect(again.json().uploaded).toEqual({ files: 0, bytes: 0 });
      const rerun = await upload(folder, branch);
      expect(rerun.json()).toMatchObject({ unchanged: true, uploaded: { files: 0, bytes: 0 } });
    },
  );
});
