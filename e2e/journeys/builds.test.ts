import {
  connectToGitServer,
  deliverAsGitHub,
  expectStatus,
  type GitServer,
  makeBaseImages,
  NODE_IMAGE,
  podmanWorks,
  siteRequest,
  startGitServer,
} from '@wharf/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from '../support/accessibilityRoutes.ts';
import { hasChromium } from '../support/chromium.ts';
import { expectPath, expectVisible, openStage, type Stage, snap, toast, visit } from '../support/journey.ts';
import { openAuditor } from '../support/lighthouse.ts';

const works = podmanWorks();
if (!works) console.warn('!! The builds journey needs podman (apt-get install podman runc slirp4netns): SKIPPED');

/** A site whose build writes its page line by line, slowly enough to be watched; `heading` is its page's. */
const siteWith = (heading: string) => ({
  'package.json': JSON.stringify({ name: 'docs', private: true, scripts: { build: 'node build.mjs' } }),
  'package-lock.json': JSON.stringify({
    name: 'docs',
    lockfileVersion: 3,
    requires: true,
    packages: { '': { name: 'docs' } },
  }),
  'build.mjs': `
import { mkdirSync, writeFileSync } from 'node:fs';
for (let step = 1; step <= 6; step++) {
  console.log('rendering page ' + step + ' of 6');
  await new Promise((resolve) => setTimeout(resolve, 1000));
}
mkdirSync('dist', { recursive: true });
writeFileSync('dist/index.html', '<h1>${heading}</h1>');
`,
});
const SITE = siteWith('Docs built by Wharf');

/** Delivers a webhook as GitHub signs it. */
async function deliver(url: string, secret: string, event: string, payload: unknown) {
  const { status, answer } = await deliverAsGitHub(url, secret, event, payload);
  expect(status).toBe(202);
  return answer.builds;
}

describe.skipIf(!works || !hasChromium)('building a site from its repository (/sites/{siteId}/builds)', () => {
  let stage: Stage;
  let git: GitServer;
  beforeAll(async () => {
    await makeBaseImages();
    git = await startGitServer('docs');
    stage = await openStage({
      WHARF_BUILD_RUNTIME: 'podman',
      WHARF_BUILD_PULL: 'never',
      WHARF_BUILD_IMAGES: 'docker.io/library/node:*',
      WHARF_BUILD_ALLOWED_PRIVATE: '127.0.0.1',
      WHARF_EXTRA_CA_CERTS: git.caFile,
    });
  }, 25 * 60_000);
  afterAll(async () => {
    await stage?.close();
    await git?.close();
  });

  it('connects a repository, builds it, streams the log, and publishes the site', async () => {
    const { owner } = stage.world.clients;
    const site = expectStatus(
      await owner.post(`/api/v1/teams/${stage.world.team._id}/sites`, { name: stage.world.unique('docs') }),
      200,
    );
    await git.commit('main', 'Docs, first edition', SITE);
    const { context, page } = await visit(stage, { user: 'teammate', orgId: stage.world.org._id });
    await page.goto(`/sites/${site._id}/builds`);
    await expectVisible(page.getByRole('heading', { name: 'No repository connected' }));
    await snap(page, 'builds-not-connected');
    await page.getByRole('link', { name: 'Connect a repository' }).click();
    await expectPath(page, `/sites/${site._id}/settings/repository`);
    await page.getByLabel('Repository URL').fill(git.url);
    await page.getByLabel('Build image').fill(NODE_IMAGE);
    await page.getByLabel('Build command').fill('npm run build');
    await page.getByLabel('Publish directory').fill('dist');
    await page.getByRole('button', { name: 'Save' }).click();
    await expectVisible(toast(page, 'Repository connected'));
    await expectVisible(page.getByRole('heading', { name: 'Build hooks' }));
    const repository = expectStatus(await owner.get(`/api/v1/sites/${site._id}/repository`), 200);
    await expectVisible(page.getByLabel('Webhook URL', { exact: true }).getByText(repository.webhookUrl));
    await expectVisible(page.getByLabel('Webhook secret', { exact: true }));
    await page.getByRole('button', { name: 'Add variable' }).click();
    const adding = page.getByRole('dialog', { name: 'Add build variable' });
    await adding.getByLabel('Name').fill('WHARF_TOKEN');
    await adding.getByLabel('Value').fill('docs-secret-token');
    await adding.getByRole('button', { name: 'Add variable' }).click();
    await expectVisible(adding.getByText('Is set by Wharf itself'));
    await adding.getByLabel('Name').fill('SEARCH_TOKEN');
    await adding.getByRole('switch', { name: /^Secret/ }).click({ force: true });
    await adding.getByRole('button', { name: 'Add variable' }).click();
    const variable = page.getByLabel('Variable SEARCH_TOKEN, Every build');
    await expectVisible(variable.getByText('secret'));
    await expectVisible(variable.getByText('••••••'));
    expect(await page.getByText('docs-secret-token').count()).toBe(0);
    await page.getByLabel('Access token').fill(git.forge.token);
    await page.getByRole('button', { name: 'Save token' }).click();
    await expectVisible(toast(page, 'Forge token saved: builds report to the forge'));
    await expectVisible(page.getByText('Token set'));
    await expect.poll(() => page.getByLabel('Replace the token').inputValue()).toBe('');
    await page.getByRole('textbox', { name: 'Watch paths' }).fill('docs/**');
    await page.getByRole('textbox', { name: 'Watch paths' }).press('Enter');
    await snap(page, 'repository-settings');
    await page.getByRole('textbox', { name: 'Watch paths' }).press('Backspace');

    await page.getByRole('tab', { name: 'Builds' }).click();
    await expectVisible(page.getByRole('heading', { name: 'No builds yet' }));
    await page.getByRole('button', { name: 'Build now' }).click();
    const dialog = page.getByRole('dialog', { name: 'Build now' });
    await expect.poll(() => dialog.getByLabel('Git branch').inputValue()).toBe('main');
    await dialog.getByRole('button', { name: 'Build' }).click();
    await page.waitForURL(/\/builds\/[a-z0-9]+$/);

    // The log arrives while the build still runs: live, not when it ends.
    const log = page.getByRole('log', { name: 'Build log' });
    // Clone, install and the build's container come first: on a busy machine that takes a while.
    await log.getByText('rendering page 1 of 6').waitFor({ state: 'visible', timeout: 120_000 });
    await expectVisible(page.getByText('Building', { exact: true }));
    await expectVisible(page.getByRole('listitem', { name: 'Build: running' }));
    await snap(page, 'build-running');

    await page
      .getByRole('alert')
      .filter({ hasText: 'Published to main' })
      .waitFor({ state: 'visible', timeout: 120_000 });
    await expectVisible(log.getByText('rendering page 6 of 6'));
    await expectVisible(page.getByRole('listitem', { name: 'Install: succeeded' }));
    await expectVisible(page.getByText('Docs, first edition'));
    await snap(page, 'build-published');
    const port = Number(new URL(stage.server.url).port);
    expect((await siteRequest(port, `${site.name}.localhost`, '/')).text).toContain('Docs built by Wharf');

    await page.getByRole('link', { name: 'See the release' }).click();
    await expectVisible(page.getByText('Docs, first edition'));
    await page.getByRole('tab', { name: 'Builds' }).click();
    await expectVisible(page.getByRole('link', { name: /^Build main @ [0-9a-f]{7}$/ }).getByText('Published'));
    await snap(page, 'builds');

    // A build hook, made in the settings, builds when called; the list shows it as it comes.
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByRole('tab', { name: 'Repository' }).click();
    await page.getByRole('button', { name: 'Add build hook' }).click();
    const addingHook = page.getByRole('dialog', { name: 'Add build hook' });
    await addingHook.getByLabel('Name').fill('CMS publish');
    await addingHook.getByRole('button', { name: 'Create build hook' }).click();
    const created = page.getByRole('dialog', { name: 'Build hook created' });
    const address = (await created.getByLabel('Address of CMS publish', { exact: true }).textContent()) ?? '';
    expect(address).toMatch(new RegExp(`^${stage.server.url}/api/v1/build-hooks/[A-Za-z0-9_-]{43}$`));
    await snap(page, 'build-hook-created');
    await created.getByRole('button', { name: 'Done' }).click();
    await expectVisible(page.getByLabel('Build hook CMS publish').getByText('never called'));
    await snap(page, 'site-settings-repository-built');
    await page.getByRole('tab', { name: 'Builds' }).click();
    expect((await fetch(address, { method: 'POST' })).status).toBe(202);
    await expectVisible(page.getByText("Called the build hook 'CMS publish'", { exact: false }));

    const builds = expectStatus(await owner.get(`/api/v1/sites/${site._id}/builds`), 200);
    await context.close();
    const auditor = await openAuditor(stage, 'owner');
    try {
      await expectAccessible(auditor, [
        `/sites/${site._id}/builds`,
        `/sites/${site._id}/builds/${builds.items[0]._id}`,
      ]);
    } finally {
      await auditor.close();
    }
  }, 600_000);

  it('previews a pull request the forge tells of, and production changes once it is merged', async () => {
    const { owner } = stage.world.clients;
    const site = expectStatus(
      await owner.post(`/api/v1/teams/${stage.world.team._id}/sites`, { name: stage.world.unique('shop') }),
      200,
    );
    await git.commit('main', 'The old look', siteWith('The old look'));
    const { repository, secret } = await connectToGitServer(owner, site._id, git);
    const webhook = (event: string, payload: unknown) => deliver(repository.webhookUrl, secret, event, payload);
    const finished = async (buildId: string) =>
      expect
        .poll(async () => expectStatus(await owner.get(`/api/v1/sites/${site._id}/builds/${buildId}`), 200).state, {
          timeout: 120_000,
        })
        .toBe('succeeded');
    const push = async (message: string) => {
      const head = await git.commit('main', message, siteWith(message));
      const [buildId] = await webhook('push', {
        ref: 'refs/heads/main',
        after: head,
        head_commit: { id: head, message },
      });
      await finished(buildId!);
    };
    await push('The old look');

    const head = await git.commit('feature/new-look', 'A new look', siteWith('A new look'));
    await git.setRef('refs/pull/2/head', 'feature/new-look');
    const pullRequest = (action: string) => ({
      action,
      number: 2,
      pull_request: {
        html_url: 'https://git.example.test/acme/shop/pull/2',
        head: { ref: 'feature/new-look', sha: head },
      },
      sender: { login: 'grace' },
    });
    const [preview] = await webhook('pull_request', pullRequest('opened'));
    await finished(preview!);

    const { context, page } = await visit(stage, { user: 'teammate', orgId: stage.world.org._id });
    await page.goto(`/sites/${site._id}/builds`);
    await page.getByRole('link', { name: /^Build feature\/new-look @ / }).click();
    await expectVisible(page.getByText('Pull request #2', { exact: false }));
    await expectVisible(page.getByRole('alert').filter({ hasText: 'Published to pr-2' }));
    await snap(page, 'build-pull-request');
    const port = new URL(stage.server.url).port;
    await page.goto(`http://pr-2.${site.name}.localhost:${port}/`);
    await expectVisible(page.getByRole('heading', { name: 'A new look' }));
    await page.goto(`http://${site.name}.localhost:${port}/`);
    await expectVisible(page.getByRole('heading', { name: 'The old look' }));

    // Merged: the forge tells of the closed pull request and of the push to main.
    await webhook('pull_request', pullRequest('closed'));
    await push('A new look');
    await page.goto(`/sites/${site._id}/builds`);
    await expectVisible(
      page
        .getByRole('link', { name: /^Build main @ / })
        .first()
        .getByText('Published'),
    );
    await expect
      .poll(
        async () =>
          (await fetch(`http://127.0.0.1:${port}/`, { headers: { host: `${site.name}.localhost:${port}` } })).status,
      )
      .toBe(200);
    await page.goto(`http://${site.name}.localhost:${port}/`);
    await expectVisible(page.getByRole('heading', { name: 'A new look' }));
    const branches = expectStatus(await owner.get(`/api/v1/sites/${site._id}/branches`), 200);
    expect(branches.map((branch: { name: string }) => branch.name)).not.toContain('pr-2');
    await context.close();
  }, 600_000);
});
