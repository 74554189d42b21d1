import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort, siteRequest } from '@wharf/server/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type StatusPeer, startStatusPeer } from './statusPeer.ts';
import { startUploadWorld, type UploadWorld } from './uploadWorld.ts';
import { type RunnerMachine, runActionsJob, runGitlabJob } from './workflowRunner.ts';

const REPOSITORY = path.resolve(import.meta.dirname, '../../..');
const ACTION = path.join(REPOSITORY, 'deploy/github-action');
/** The address the README's examples name, which a reader replaces with their own. */
const EXAMPLE_URL = 'https://wharf.example.com';
/** What a CI runner has: Node, npm and the system's tools, none of this repository. */
const SYSTEM_PATH = [path.dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':');

/** The code block that follows a line of the README starting with `lead`. */
async function readmeBlock(lead: string) {
  const readme = await readFile(path.join(REPOSITORY, 'README.md'), 'utf8');
  const at = readme.indexOf(`\n${lead}`);
  if (at < 0) throw new Error(`README has no paragraph starting ${lead}`);
  const block = /```ya?ml\n([\s\S]*?)```/.exec(readme.slice(at));
  return parse(block![1]!);
}

let world: UploadWorld;
let forge: StatusPeer;
let scratch: string;
let project: string;
beforeAll(async () => {
  world = await startUploadWorld();
  forge = await startStatusPeer('forge-token');
  scratch = await mkdtemp(path.join(os.tmpdir(), 'wharf-ci-examples-'));
  // The repository a workflow checks out: a site whose build writes ./dist, with no dependencies.
  project = path.join(scratch, 'project');
  await mkdir(project);
  await writeFile(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'shop', version: '1.0.0', private: true, scripts: { build: 'node build.mjs' } }),
  );
  await writeFile(
    path.join(project, 'package-lock.json'),
    JSON.stringify({
      name: 'shop',
      version: '1.0.0',
      lockfileVersion: 3,
      requires: true,
      packages: { '': { name: 'shop', version: '1.0.0' } },
    }),
  );
  await writeFile(
    path.join(project, 'build.mjs'),
    [
      "import { mkdirSync, writeFileSync } from 'node:fs';",
      "mkdirSync('dist', { recursive: true });",
      "writeFileSync('dist/index.html', '<h1>built at ' + process.env.BUILT_FOR + '</h1>');",
    ].join('\n'),
  );
});
afterAll(async () => {
  await forge?.close();
  await world?.server.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});
beforeEach(() => {
  forge.statuses.length = 0;
  forge.comments.length = 0;
});

/** A fresh runner: an empty workspace, an empty npm cache, and a registry nobody answers on. */
async function machine(builtFor: string): Promise<RunnerMachine> {
  const root = await mkdtemp(path.join(scratch, 'runner-'));
  const workspace = path.join(root, 'workspace');
  await mkdir(workspace);
  return {
    workspace,
    env: {
      PATH: SYSTEM_PATH,
      HOME: root,
      CI: 'true',
      BUILT_FOR: builtFor,
      npm_config_cache: path.join(root, 'npm-cache'),
      npm_config_registry: `http://127.0.0.1:${await freePort()}/`,
      npm_config_fetch_retries: '0',
      npm_config_update_notifier: 'false',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
    },
    localAction: (uses) => (/(^\.\/|\/)deploy\/github-action(@|$)/.test(uses) ? ACTION : null),
    uses: async (action, into) => {
      if (action.startsWith('actions/checkout@')) await cp(project, into, { recursive: true });
      else if (!action.startsWith('actions/setup-node@')) throw new Error(`The stand-in runner has no ${action}`);
    },
  };
}

/** What GitHub sets for a pull_request event (Forgejo and Gitea the same), and the expressions' context. */
async function pullRequestRun(runner: RunnerMachine, number: number, action: string) {
  const event = { action, number, pull_request: { number, head: { sha: `c0ffee${number}` } } };
  const eventPath = path.join(runner.workspace, '..', 'event.json');
  await writeFile(eventPath, JSON.stringify(event));
  runner.env = {
    ...runner.env,
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_REF: `refs/pull/${number}/merge`,
    GITHUB_HEAD_REF: 'feature/cart',
    GITHUB_SHA: 'deadbeef',
    GITHUB_REPOSITORY: 'acme/shop',
    GITHUB_API_URL: forge.url,
    GITHUB_WORKSPACE: runner.workspace,
  };
  return {
    github: { token: 'forge-token', event, event_name: 'pull_request' },
    vars: { WHARF_SITE: world.siteId },
    secrets: { WHARF_TOKEN: world.siteToken },
  };
}

/** The README's job, pointed at this installation instead of the example address. */
const atThisWharf = (job: Record<string, any>) =>
  JSON.parse(JSON.stringify(job).replaceAll(EXAMPLE_URL, world.server.url)) as Record<string, any>;

/** A branch's page at its address: the site's own for the main branch. */
async function served(branch: string) {
  const port = Number(new URL(world.server.url).port);
  const label = branch === 'main' ? world.siteName : `${branch}.${world.siteName}`;
  return siteRequest(port, `${label}.localhost:${port}`, '/');
}

const branchNames = async () =>
  ((await world.owner.get(`/api/v1/sites/${world.siteId}/branches`)).body as { name: string }[]).map((b) => b.name);

describe("the README's CI examples, run by a stand-in of each forge's runner against this installation", () => {
  it('GitHub Actions: a pull request opened deploys pr-{number} with its status and comment; closed, the branch goes', async () => {
    const workflow = await readmeBlock('**GitHub Actions** (`.github/workflows/preview.yml`)');
    const job = atThisWharf(workflow.jobs.preview);
    const opened = await machine('pr-31');
    await runActionsJob(job, await pullRequestRun(opened, 31, 'opened'), opened);
    expect((await served('pr-31')).text).toBe('<h1>built at pr-31</h1>');
    expect(forge.statuses).toEqual([
      expect.objectContaining({
        path: '/repos/acme/shop/statuses/c0ffee31',
        body: expect.objectContaining({ state: 'success', context: 'wharf' }),
      }),
    ]);
    expect(forge.comments).toEqual([
      expect.objectContaining({ on: 'acme/shop#31', body: expect.stringContaining('pr-31.') }),
    ]);

    const closed = await machine('pr-31');
    await runActionsJob(job, await pullRequestRun(closed, 31, 'closed'), closed);
    expect(await branchNames()).not.toContain('pr-31');
  }, 300_000);

  it("Wharf's action: the same in one step with its outputs, and a push deploys the main branch", async () => {
    const workflow = await readmeBlock("**With Wharf's action**");
    const job = atThisWharf(workflow.jobs.deploy);
    const opened = await machine('pr-32');
    const run = await runActionsJob(job, await pullRequestRun(opened, 32, 'opened'), opened);
    expect((await served('pr-32')).text).toBe('<h1>built at pr-32</h1>');
    expect(run.steps.wharf?.outputs).toEqual({ url: expect.stringContaining('pr-32.'), release: expect.any(String) });
    expect(run.log).toContain(`Deployed to ${run.steps.wharf?.outputs.url}`);
    expect(forge.statuses).toHaveLength(1);
    expect(forge.comments).toHaveLength(1);

    const closed = await machine('pr-32');
    await runActionsJob(job, await pullRequestRun(closed, 32, 'closed'), closed);
    expect(await branchNames()).not.toContain('pr-32');

    const pushed = await machine('main');
    pushed.env = {
      ...pushed.env,
      GITHUB_EVENT_NAME: 'push',
      GITHUB_REF: 'refs/heads/main',
      GITHUB_REF_NAME: 'main',
      GITHUB_SHA: 'feedface',
    };
    const context = {
      github: { token: 'forge-token', event: {}, event_name: 'push' },
      vars: { WHARF_SITE: world.siteId },
      secrets: { WHARF_TOKEN: world.siteToken },
    };
    const push = await runActionsJob(job, context, pushed);
    expect(push.steps.wharf?.outputs.url).toContain(`//${world.siteName}.`);
    expect((await served('main')).text).toBe('<h1>built at main</h1>');
  }, 300_000);

  it('GitLab CI: a merge request deploys pr-{iid} with its status and note; the stop job removes it', async () => {
    const file = await readmeBlock('**GitLab CI** (`.gitlab-ci.yml`');
    const variables = {
      WHARF_URL: world.server.url,
      WHARF_SITE: world.siteId,
      WHARF_TOKEN: world.siteToken,
      GITLAB_CI: 'true',
      CI_PIPELINE_SOURCE: 'merge_request_event',
      CI_MERGE_REQUEST_IID: '7',
      CI_COMMIT_REF_NAME: 'feature/cart',
      CI_COMMIT_SHA: 'abc123',
      CI_PROJECT_ID: '1234',
      CI_API_V4_URL: forge.url,
      GITLAB_TOKEN: 'forge-token',
    };
    const runner = await machine('mr-7');
    await runner.uses('actions/checkout@v4', runner.workspace);
    await runGitlabJob(file.preview, variables, runner);
    expect((await served('pr-7')).text).toBe('<h1>built at mr-7</h1>');
    expect(forge.statuses).toEqual([expect.objectContaining({ path: '/projects/1234/statuses/abc123' })]);
    expect(forge.comments).toHaveLength(1);
    expect(file.preview.environment.on_stop).toBe('preview-stop');

    await runGitlabJob(file['preview-stop'], variables, await machine('mr-7'));
    expect(await branchNames()).not.toContain('pr-7');
  }, 300_000);
});
