import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expectStatus, siteRequest, TestClient } from '@wharf/server/testing';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { exitCodes } from '../src/failures.ts';
import { runInProcess } from './inProcess.ts';
import { siteFolder } from './siteFolder.ts';
import { startUploadWorld, type UploadWorld } from './uploadWorld.ts';
import { runWharf, startWharf } from './wharfProcess.ts';

let world: UploadWorld;
beforeAll(async () => {
  world = await startUploadWorld();
});
afterAll(() => world?.server.close());

/** A user's own config folder, empty: no login of this machine's user is ever read or written. */
async function configHome() {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'wharf-config-'));
  onTestFinished(() => rm(folder, { recursive: true, force: true }));
  return { XDG_CONFIG_HOME: folder };
}

const machine = `${os.userInfo().username}@${os.hostname()}`;
const PAGE = /(http:\S+\/cli-login\/(\w+))\n/;
const CODE = /shows the code ([B-Z]{4}-[B-Z]{4})/;

/** `wharf login` in a process of its own, approved by the owner through the API once it printed its page and code. */
async function loginApproved(env: Record<string, string>) {
  const login = startWharf(['login', '--url', world.server.url], { env });
  const [, , id] = await login.stderrMatch(PAGE);
  const [, code] = await login.stderrMatch(CODE);
  const request = expectStatus(await world.owner.get(`/api/v1/cli-logins/${id}`), 200);
  expect(request).toMatchObject({ machine, code, state: 'pending' });
  expectStatus(await world.owner.post(`/api/v1/cli-logins/${id}/approve`), 200);
  return { id: id!, run: await login.done };
}

describe('wharf login, logout and whoami against a real server', () => {
  it('logs in once approved in the console, keeps the token for the user alone, and uploads with it', async () => {
    const env = await configHome();
    const { id, run } = await loginApproved(env);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`to approve the sign-in of ${machine}:`);
    expect(run.stderr).toContain('Ctrl+C stops waiting');
    expect(run.stdout).toContain(`Logged in to ${world.server.url} as owner. The token "CLI on ${machine}"`);

    const file = path.join(env.XDG_CONFIG_HOME, 'wharf', 'credentials.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(file))).mode & 0o777).toBe(0o700);
    const stored = JSON.parse(await readFile(file, 'utf8')).servers[world.server.url];
    expect(stored).toMatchObject({ user: 'owner', tokenName: `CLI on ${machine}`, token: /^wharf_api_/ });

    // The page's address alone fetches nothing, and a request is approved once.
    const stolen = await new TestClient(world.server.url).post(`/api/v1/cli-logins/${id}/token`, { secret: 'guess' });
    expect(stolen.status).toBe(403);
    const twice = await world.owner.post(`/api/v1/cli-logins/${id}/approve`);
    expect(twice.status).toBe(409);

    const folder = await siteFolder({ 'index.html': '<p>from my laptop</p>' });
    const upload = await runWharf(['upload', folder, '--url', world.server.url, '--site', world.siteId], { env });
    expect(upload.code).toBe(0);
    const port = Number(new URL(world.server.url).port);
    expect((await siteRequest(port, `${world.siteName}.localhost:${port}`, '/')).text).toBe('<p>from my laptop</p>');
  });

  it('says who is logged in, and with --json', async () => {
    const env = await configHome();
    expect((await loginApproved(env)).run.code).toBe(0);
    const text = await runWharf(['whoami'], { env });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      new RegExp(`^Logged in to ${world.server.url} as owner, with the token "CLI on ${machine}" \\(expires 20`),
    );
    const json = (await runWharf(['whoami', '--url', world.server.url, '--json'], { env })).json();
    expect(json).toMatchObject({
      ok: true,
      url: world.server.url,
      user: 'owner',
      token: { name: `CLI on ${machine}` },
    });
    const overridden = await runWharf(['whoami'], { env: { ...env, WHARF_TOKEN: world.siteToken } });
    expect(overridden.stdout).toContain('WHARF_TOKEN is set: other commands use it instead of this login.');
  });

  it('lets --token and WHARF_TOKEN win over the stored login', async () => {
    const env = await configHome();
    expect((await loginApproved(env)).run.code).toBe(0);
    const folder = await siteFolder({ 'index.html': '<p>x</p>' });
    const connection = ['--url', world.server.url, '--site', world.siteId];
    const flag = await runWharf(['upload', folder, ...connection, '--token', 'wharf_api_wrong'], { env });
    expect(flag.code).toBe(exitCodes.badToken);
    const variable = await runWharf(['status', ...connection], { env: { ...env, WHARF_TOKEN: 'wharf_api_wrong' } });
    expect(variable.code).toBe(exitCodes.badToken);
    expect(variable.stderr).toContain('Check --token or WHARF_TOKEN');
  });

  it('logs out: the token is deleted on the server and forgotten here', async () => {
    const env = await configHome();
    expect((await loginApproved(env)).run.code).toBe(0);
    const file = path.join(env.XDG_CONFIG_HOME, 'wharf', 'credentials.json');
    const { token } = JSON.parse(await readFile(file, 'utf8')).servers[world.server.url];

    const logout = await runWharf(['logout'], { env });
    expect(logout.code).toBe(0);
    expect(logout.stdout).toBe(`Logged out of ${world.server.url}: the token "CLI on ${machine}" is deleted.\n`);
    const refused = await new TestClient(world.server.url, token).get('/api/v1/user');
    expect(refused.status).toBe(401);
    await expect(stat(file)).rejects.toThrow(/ENOENT/);

    const whoami = await runWharf(['whoami', '--url', world.server.url], { env });
    expect(whoami.code).toBe(exitCodes.badToken);
    expect(whoami.stderr).toContain(`You are not logged in to ${world.server.url}: run wharf login`);
    const folder = await siteFolder({ 'index.html': '<p>x</p>' });
    const upload = await runWharf(['upload', folder, '--url', world.server.url, '--site', world.siteId], { env });
    expect(upload.code).toBe(exitCodes.usage);
    expect(upload.stderr).toContain('or run wharf login --url');
    expect((await runWharf(['logout', '--url', world.server.url], { env })).stdout).toContain('nothing to do');
  });

  it('says so when the login was deleted in the console meanwhile', async () => {
    const env = await configHome();
    expect((await loginApproved(env)).run.code).toBe(0);
    const tokens = expectStatus(await world.owner.get('/api/v1/api-tokens'), 200);
    const mine = tokens.find((token: { name: string }) => token.name === `CLI on ${machine}`);
    expectStatus(await world.owner.delete(`/api/v1/api-tokens/${mine._id}`), 204);
    const status = await runWharf(['status', '--url', world.server.url, '--site', world.siteId], { env });
    expect(status.code).toBe(exitCodes.badToken);
    expect(status.stderr).toContain('The server does not accept the token of wharf login');
    const whoami = await runWharf(['whoami'], { env });
    expect(whoami.code).toBe(exitCodes.badToken);
    expect(whoami.stderr).toContain('is no longer valid');
    const logout = await runWharf(['logout'], { env });
    expect(logout.stdout).toContain('the server no longer accepted the token');
  });

  it('stops when the sign-in is cancelled in the console, or expires', async () => {
    const env = await configHome();
    const cancelled = startWharf(['login', '--url', world.server.url], { env });
    const [, , cancelledId] = await cancelled.stderrMatch(PAGE);
    expectStatus(await world.owner.post(`/api/v1/cli-logins/${cancelledId}/cancel`), 200);
    const cancelRun = await cancelled.done;
    expect(cancelRun.code).toBe(exitCodes.refused);
    expect(cancelRun.stderr).toContain('Not logged in: The sign-in was cancelled in the console');

    const expiring = startWharf(['login', '--url', world.server.url, '--json'], { env });
    const [, , expiringId] = await expiring.stderrMatch(PAGE);
    await world.server.app.db
      .updateTable('cli_logins')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', expiringId!)
      .execute();
    const expiredRun = await expiring.done;
    expect(expiredRun.json()).toMatchObject({
      ok: false,
      exitCode: exitCodes.refused,
      error: 'Not logged in: Nobody approved the sign-in in time',
    });
    await expect(stat(path.join(env.XDG_CONFIG_HOME, 'wharf'))).rejects.toThrow(/ENOENT/);
  });

  it('keeps one login per server, and replacing one deletes its earlier token', async () => {
    const env = await configHome();
    expect((await loginApproved(env)).run.code).toBe(0);
    const file = path.join(env.XDG_CONFIG_HOME, 'wharf', 'credentials.json');
    const first = JSON.parse(await readFile(file, 'utf8')).servers[world.server.url];
    expect((await loginApproved(env)).run.code).toBe(0);
    const servers = JSON.parse(await readFile(file, 'utf8')).servers;
    expect(Object.keys(servers)).toEqual([world.server.url]);
    expect(servers[world.server.url].tokenId).not.toBe(first.tokenId);
    expect((await new TestClient(world.server.url, first.token).get('/api/v1/user')).status).toBe(401);
  });
});

describe('the browser of wharf login', () => {
  /** Runs `wharf login` in the test, approving it as soon as it printed its page. */
  async function loginInProcess(args: string[], tty: boolean) {
    const env = await configHome();
    let approval: Promise<unknown> = Promise.resolve();
    const run = await runInProcess(['login', '--url', world.server.url, ...args], {
      env,
      tty,
      onStderr: (text) => {
        const id = PAGE.exec(text)?.[2];
        if (id) approval = world.owner.post(`/api/v1/cli-logins/${id}/approve`);
      },
    });
    await approval;
    return run;
  }

  it('opens the page for someone at a terminal, never with --no-browser or for a CI log', async () => {
    const atTerminal = await loginInProcess([], true);
    expect(atTerminal.code).toBe(0);
    expect(atTerminal.opened).toEqual([PAGE.exec(atTerminal.stderr)![1]]);
    expect(atTerminal.stderr).toContain('(opening it in your browser)');
    const refused = await loginInProcess(['--no-browser'], true);
    expect(refused.code).toBe(0);
    expect(refused.opened).toEqual([]);
    const inCi = await loginInProcess([], false);
    expect(inCi.code).toBe(0);
    expect(inCi.opened).toEqual([]);
  });
});
