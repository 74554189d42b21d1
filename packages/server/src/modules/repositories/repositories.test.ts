import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, type TestClient } from '../../../test/client.ts';
import { databases, startTestServer, type TestServer } from '../../../test/harness.ts';
import { buildWorld, type World } from '../../../test/world.ts';
import { newDeployKey } from './deployKey.ts';

const run = promisify(execFile);

/** OpenSSH's own tool: what every forge and `ssh -i` will read the key with. */
async function sshKeygen(...args: string[]) {
  return (await run('ssh-keygen', args)).stdout.trim();
}

describe('a deploy key, as OpenSSH reads it', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'wharf-deploy-key-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('loads the private key, derives the same public key and fingerprint, and signs what the public key verifies', async () => {
    const key = newDeployKey('wharf-shop');
    const privateFile = path.join(dir, 'key');
    await writeFile(privateFile, key.privateKey, { mode: 0o600 });
    await writeFile(`${privateFile}.pub`, `${key.publicKey}\n`);
    expect(await sshKeygen('-y', '-f', privateFile)).toBe(key.publicKey);
    expect(await sshKeygen('-l', '-f', privateFile)).toBe(`256 ${key.fingerprint} wharf-shop (ED25519)`);

    const message = path.join(dir, 'message');
    await writeFile(message, 'a commit to clone');
    await sshKeygen('-Y', 'sign', '-f', privateFile, '-n', 'git', message);
    const signers = path.join(dir, 'signers');
    await writeFile(signers, `wharf ${key.publicKey}\n`);
    const verify = run('ssh-keygen', [
      '-Y',
      'verify',
      '-f',
      signers,
      '-I',
      'wharf',
      '-n',
      'git',
      '-s',
      `${message}.sig`,
    ]);
    verify.child.stdin?.end('a commit to clone');
    expect((await verify).stdout).toContain('Good "git" signature for wharf with ED25519 key');
  });

  it('is new every time', () => {
    expect(newDeployKey('a').publicKey).not.toBe(newDeployKey('a').publicKey);
  });
});

for (const database of databases) {
  describe(`a site connected to its repository (${database.name})`, () => {
    let server: TestServer;
    let world: World;
    let owner: TestClient;
    let base: string;
    const connect = (body: Record<string, unknown>, client = owner) => client.put(`${base}/repository`, body);

    beforeAll(async () => {
      server = await startTestServer({ postgres: database.postgres });
      world = await buildWorld(server.url);
      owner = world.clients.owner;
      base = `/api/v1/sites/${world.site._id}`;
    });
    afterAll(() => server?.close());

    it('has none at first', async () => {
      expect(expectStatus(await owner.get(`${base}/repository`), 200)).toBeNull();
    });

    it('connects one with the defaults, a deploy key named after the site, and an audit entry', async () => {
      const connected = expectStatus(
        await connect({ url: 'git@github.com:acme/shop.git', productionBranch: 'main' }),
        200,
      );
      expect(connected).toMatchObject({
        url: 'git@github.com:acme/shop.git',
        productionBranch: 'main',
        baseDirectory: '',
        buildCommand: '',
        publishDirectory: '',
        image: 'node:24',
        branchDeploys: 'all',
        branches: [],
        previews: true,
      });
      expect(connected.deployKey.publicKey).toMatch(
        new RegExp(`^ssh-ed25519 [A-Za-z0-9+/]+=* wharf-${world.site.name}$`),
      );
      expect(connected.deployKey.fingerprint).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
      expect(JSON.stringify(connected)).not.toContain('PRIVATE KEY');
      expect(expectStatus(await owner.get(`${base}/repository`), 200)).toEqual(connected);
      const audit = expectStatus(
        await owner.get(`/api/v1/orgs/${world.org._id}/audit?event=site_repository_connected`),
        200,
      );
      expect(audit.items[0].summary).toMatch(/connected .* to the repository .git@github\.com:acme\/shop\.git./);
    });

    it('keeps the private key sealed at rest', async () => {
      const row = await server.app.db
        .selectFrom('site_repositories')
        .selectAll()
        .where('site_id', '=', world.site._id)
        .executeTakeFirstOrThrow();
      expect(row.deploy_key_sealed).not.toContain('PRIVATE KEY');
      expect(server.app.sealer.open(row.deploy_key_sealed)).toContain('-----BEGIN OPENSSH PRIVATE KEY-----');
    });

    it('changes how it builds and keeps its deploy key', async () => {
      const before = expectStatus(await owner.get(`${base}/repository`), 200);
      const body = {
        url: 'https://gitlab.example.com/acme/monorepo.git',
        productionBranch: 'release/2026',
        baseDirectory: 'apps/docs',
        buildCommand: 'npm ci && npm run build',
        publishDirectory: 'apps/docs/dist',
        image: 'registry.example.com:5000/builders/node:24-slim',
        branchDeploys: 'listed',
        branches: ['feature/*', 'staging'],
        previews: false,
      };
      const changed = expectStatus(await connect(body), 200);
      expect(changed).toMatchObject(body);
      expect(changed.deployKey).toEqual(before.deployKey);
      expect(changed.connectedAt).toBe(before.connectedAt);
    });

    it('replaces the deploy key on demand', async () => {
      const before = expectStatus(await owner.get(`${base}/repository`), 200);
      const renewed = expectStatus(await owner.post(`${base}/repository/deploy-key`), 200);
      expect(renewed.deployKey.publicKey).not.toBe(before.deployKey.publicKey);
      expect(renewed.url).toBe(before.url);
    });

    it.each([
      ['https://user:token@github.com/acme/shop.git', 'Must not hold a user name, password or token'],
      ['https://oauth2@gitlab.com/acme/shop.git', 'Must not hold a user name, password or token'],
      ['http://github.com/acme/shop.git', 'Must be an https://, ssh:// or user@host:path URL'],
      ['file:///etc/wharf', 'Must be an https://, ssh:// or user@host:path URL'],
      ['ext::sh -c touch% /tmp/pwned', 'Must not hold spaces or control characters'],
      ['ext::sh', 'Must be an https://, ssh:// or user@host:path URL'],
      ['--upload-pack=touch /tmp/pwned', 'Must not hold spaces or control characters'],
      ['-oProxyCommand=x', 'Must not start with -'],
      ['https://github.com/', 'Must name a host and a repository path'],
    ])('refuses the URL %s, changing nothing', async (url, message) => {
      const before = expectStatus(await owner.get(`${base}/repository`), 200);
      const refused = await connect({ url, productionBranch: 'main' });
      expect(refused.status).toBe(400);
      expect(refused.body.details).toContainEqual({ field: 'url', message });
      expect(expectStatus(await owner.get(`${base}/repository`), 200)).toEqual(before);
    });

    it('refuses directories outside the repository, bad images and branch names, naming each field', async () => {
      const refused = await connect({
        url: 'git@github.com:acme/shop.git',
        productionBranch: '-main',
        baseDirectory: '../secrets',
        publishDirectory: '/var/lib/wharf',
        image: 'Node 24',
        branches: ['feature..x'],
      });
      expect(refused.status).toBe(400);
      expect(refused.body.details).toEqual(
        expect.arrayContaining([
          { field: 'productionBranch', message: 'Must be a branch name' },
          { field: 'baseDirectory', message: 'Must stay inside the repository' },
          { field: 'publishDirectory', message: 'Must be relative to the repository root' },
          { field: 'image', message: 'Must be an image reference such as node:24' },
          expect.objectContaining({ field: 'branches.0' }),
        ]),
      );
    });

    it('is changed only by those who manage the site, who are told before their input is read', async () => {
      const bad = { url: 'file:///etc', productionBranch: '' };
      expect((await connect(bad, world.clients.member)).body.code).toBe('ROLE_INSUFFICIENT');
      expect((await connect(bad, world.clients.outsider)).body.code).toBe('SITE_NOT_FOUND');
      const seen = expectStatus(await world.clients.member.get(`${base}/repository`), 200);
      expect(seen.url).toBe('https://gitlab.example.com/acme/monorepo.git');
    });

    it('disconnects, forgetting the key, and says so when there is nothing to disconnect', async () => {
      expect((await owner.delete(`${base}/repository`)).status).toBe(204);
      expect(expectStatus(await owner.get(`${base}/repository`), 200)).toBeNull();
      const again = await owner.delete(`${base}/repository`);
      expect([again.status, again.body.code]).toEqual([404, 'REPOSITORY_NOT_CONNECTED']);
      const renew = await owner.post(`${base}/repository/deploy-key`);
      expect(renew.body.code).toBe('REPOSITORY_NOT_CONNECTED');
    });

    it('goes with its site', async () => {
      const site = expectStatus(
        await owner.post(`/api/v1/teams/${world.team._id}/sites`, { name: world.unique('gone') }),
        200,
      );
      expectStatus(
        await owner.put(`/api/v1/sites/${site._id}/repository`, {
          url: 'git@github.com:a/b.git',
          productionBranch: 'main',
        }),
        200,
      );
      expect((await owner.delete(`/api/v1/sites/${site._id}`)).status).toBeLessThan(300);
      const rows = await server.app.db
        .selectFrom('site_repositories')
        .select('site_id')
        .where('site_id', '=', site._id)
        .execute();
      expect(rows).toEqual([]);
    });
  });
}
