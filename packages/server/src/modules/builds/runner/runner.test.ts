import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../../test/harness.ts';
import { buildWorld } from '../../../../test/world.ts';
import { buildRetentionChore } from '../buildRetention.ts';
import { imageAllowed, qualifiedImage } from '../buildSettings.ts';
import { removeCachesOfDeletedSites } from './buildCache.ts';
import { BuildLog, MASK } from './buildLog.ts';
import { containerArguments } from './container.ts';
import { repositoryHost } from './repositoryAddress.ts';
import { installCommand } from './runBuild.ts';

describe('what a build runs with', () => {
  it('reads image references as Docker does, and allows only those the operator lists', () => {
    expect(qualifiedImage('node:24')).toBe('docker.io/library/node:24');
    expect(qualifiedImage('acme/builder:1')).toBe('docker.io/acme/builder:1');
    expect(qualifiedImage('registry.example.com:5000/team/builder')).toBe('registry.example.com:5000/team/builder');
    expect(qualifiedImage('localhost/builder')).toBe('localhost/builder');
    const settings = { images: ['node:*', 'registry.example.com/builders/*'] };
    expect(imageAllowed(settings, 'node:24')).toBe(true);
    expect(imageAllowed(settings, 'docker.io/library/node:22-alpine')).toBe(true);
    expect(imageAllowed(settings, 'registry.example.com/builders/hugo:0.140')).toBe(true);
    expect(imageAllowed(settings, 'nodejs/node:24')).toBe(false);
    expect(imageAllowed(settings, 'registry.example.com/other/hugo')).toBe(false);
    expect(imageAllowed({ images: ['node:24.1'] }, 'node:2421')).toBe(false);
  });

  it('installs with the lockfile the base directory holds', () => {
    expect(installCommand(['package.json', 'package-lock.json'], false)).toBe('npm ci --no-audit --no-fund');
    expect(installCommand(['package.json', 'package-lock.json'], true)).toBe('npm install --no-audit --no-fund');
    expect(installCommand(['package.json', 'yarn.lock'], false)).toBe('yarn install --frozen-lockfile');
    expect(installCommand(['package.json', 'pnpm-lock.yaml'], false)).toBe('corepack pnpm install --frozen-lockfile');
    expect(installCommand(['package.json'], false)).toBe('npm install --no-audit --no-fund');
    expect(installCommand(['index.html'], false)).toBeNull();
  });

  it('finds the host of every form of clone URL', () => {
    expect(repositoryHost('https://git.example.com/acme/site.git')).toBe('git.example.com');
    expect(repositoryHost('ssh://git@[::1]:2222/acme/site.git')).toBe('::1');
    expect(repositoryHost('git@github.com:acme/site.git')).toBe('github.com');
  });

  it('gives the container its limits, no privileges, and variables by name only', () => {
    const args = containerArguments({
      settings: {
        runtime: 'podman',
        network: 'slirp4netns',
        images: ['node:*'],
        pull: 'missing',
        cpus: 1.5,
        memory: '1g',
        pids: 256,
        timeoutMs: 60_000,
        orgConcurrency: 1,
        slots: 1,
        allowedPrivate: { setting: 'WHARF_BUILD_ALLOWED_PRIVATE', names: new Set(), networks: [] },
      },
      name: 'wharf-build-x-build',
      image: 'node:24',
      workspace: '/data/builds/x/repository',
      cache: '/data/build-cache/s',
      directory: 'apps/docs',
      command: 'npm run build',
      variables: { API_TOKEN: 'hunter2-but-longer' },
      log: undefined as never,
      signal: new AbortController().signal,
    });
    expect(args).toEqual(
      expect.arrayContaining([
        '--user',
        '1000:1000',
        '--cpus=1.5',
        '--memory=1g',
        '--memory-swap=1g',
        '--pids-limit=256',
        '--network=slirp4netns:allow_host_loopback=false',
        '--security-opt=no-new-privileges',
        '--cap-drop=ALL',
        '/data/builds/x/repository:/workspace',
        '/data/build-cache/s:/cache',
        '/workspace/apps/docs',
        'API_TOKEN',
        'docker.io/library/node:24',
      ]),
    );
    expect(args.join(' ')).not.toContain('hunter2');
  });
});

describe('a build’s log', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  const kept = async (buildId: string) =>
    (
      await server.app.db
        .selectFrom('build_log')
        .select('text')
        .where('build_id', '=', buildId)
        .orderBy('seq')
        .execute()
    ).map((row) => row.text);

  it('masks secrets, even split across pieces of output, and keeps plain lines', async () => {
    const log = new BuildLog(server.app.db, 'masked', ['s3cr3t-value', 'abc']);
    log.write('token is s3cr');
    log.write('3t-value\nprogress 10%\rprogress 100%\n\u001b[32mgreen\u001b[0m text');
    log.say('done');
    await log.close();
    expect(await kept('masked')).toEqual([`token is ${MASK}`, 'progress 100%', 'green text', 'done']);
  });

  it('stops at its limit and says so', async () => {
    const log = new BuildLog(server.app.db, 'long', []);
    log.write('x\n'.repeat(20_100));
    await log.close();
    const lines = await kept('long');
    expect(lines).toHaveLength(20_001);
    expect(lines.at(-1)).toBe('… the log stops here: a build keeps at most 20000 lines');
  });
});

describe('build retention', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('forgets builds finished over 90 days ago with their logs, and keeps the others', async () => {
    const { db } = server.app;
    const row = (id: string, finishedAt: string | null) => ({
      id,
      site_id: 's',
      org_id: 'o',
      git_branch: 'main',
      branch: 'main',
      source: '{}',
      trigger: 'manual' as const,
      triggered_by: null,
      actor_id: null,
      retry_of: null,
      image: 'node:24',
      state: finishedAt ? ('succeeded' as const) : ('running' as const),
      phases: '[]',
      error: null,
      release_id: null,
      cancel_requested: 0,
      node: null,
      lease_until: null,
      log_lines: 1,
      fetch_ref: null,
      created_at: '2026-01-01T00:00:00.000Z',
      started_at: null,
      finished_at: finishedAt,
    });
    await db
      .insertInto('builds')
      .values([row('old', '2026-08-01T00:00:00.000Z'), row('recent', '2026-11-01T00:00:00.000Z'), row('running', null)])
      .execute();
    await db
      .insertInto('build_log')
      .values(['old', 'recent'].map((id) => ({ build_id: id, seq: 0, at: '2026-01-01T00:00:00.000Z', text: 'x' })))
      .execute();
    await buildRetentionChore(db).run({ at: new Date('2026-11-30T00:00:00.000Z'), thorough: false });
    expect((await db.selectFrom('builds').select('id').orderBy('id').execute()).map((b) => b.id)).toEqual([
      'recent',
      'running',
    ]);
    expect((await db.selectFrom('build_log').select('build_id').execute()).map((l) => l.build_id)).toEqual(['recent']);
  });
});

describe('the caches of deleted sites', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('are removed from the builder’s disk; those of sites that remain stay', async () => {
    const world = await buildWorld(server.url);
    const folder = path.join(server.dataDir, 'build-cache');
    for (const siteId of [world.site._id, 'deletedsite0000000000'])
      await mkdir(path.join(folder, siteId, 'node_modules'), { recursive: true });
    expect(await removeCachesOfDeletedSites(server.app.db, server.dataDir)).toEqual(['deletedsite0000000000']);
    expect(await readdir(folder)).toEqual([world.site._id]);
  });
});
