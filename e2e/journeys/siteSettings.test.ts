import { type DnsPeer, expectStatus, PNG, selfSignedCertificate, startDnsPeer } from '@wharf/server/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInBrowser } from '../support/browser.ts';
import {
  expectHidden,
  expectVisible,
  fieldError,
  openStage,
  type Stage,
  snap,
  toast,
  visit,
} from '../support/journey.ts';

describeInBrowser(
  "a site's general settings (/sites/{siteId}/settings): name, domains, ownership, certificates",
  () => {
    let stage: Stage;
    let dns: DnsPeer;
    beforeAll(async () => {
      // The DNS server Wharf checks custom domains' ownership with.
      dns = await startDnsPeer();
      stage = await openStage({ WHARF_DNS_SERVER: dns.server });
    });
    afterAll(async () => {
      await stage?.close();
      await dns?.close();
    });

    async function newSite(prefix: string) {
      const { owner } = stage.world.clients;
      const site = expectStatus(
        await owner.post(`/api/v1/teams/${stage.world.team._id}/sites`, { name: stage.world.unique(prefix) }),
        200,
      );
      return site as { _id: string; name: string; url: string; mainBranch: string };
    }

    it('saves the general settings, with the name check, domains and their certificates', async () => {
      const site = await newSite('settings');
      const { context, page } = await visit(stage, { user: 'teammate', orgId: stage.world.org._id });
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      await page.goto(`/sites/${site._id}/settings`);
      await page.getByRole('button', { name: 'Copy the site ID' }).click();
      await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(site._id);
      // The General card's own buttons: the Retention card below has a Save and a Discard too.
      const general = page.locator('form').filter({ has: page.getByRole('heading', { name: 'General' }) });
      const save = general.getByRole('button', { name: 'Save' });
      const discard = general.getByRole('button', { name: 'Discard' });
      await expect.poll(() => save.isDisabled()).toBe(true);
      await expect.poll(() => discard.isDisabled()).toBe(true);
      await page.getByRole('textbox', { name: /^Name/ }).fill(stage.world.site.name);
      await expectVisible(fieldError(page, 'Name').filter({ hasText: 'Site name is taken' }));
      await page.getByRole('textbox', { name: /^Name/ }).fill('Bad_Name');
      await save.click();
      await expect
        .poll(() => fieldError(page, 'Name').textContent())
        .toBe('Must match ^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$');
      await discard.click();
      await expect.poll(() => page.getByRole('textbox', { name: /^Name/ }).inputValue()).toBe(site.name);

      await page.getByRole('switch', { name: 'SPA mode' }).click({ force: true });
      await page.getByRole('button', { name: 'Add domain' }).click();
      await page.getByRole('button', { name: 'Add domain' }).click();
      const first = page.getByRole('group', { name: 'Domain 1' });
      const second = page.getByRole('group', { name: 'Domain 2' });
      // This installation has no automatic HTTPS: a new domain expects TLS terminated in front of Wharf.
      await expectVisible(first.getByRole('radio', { name: /^Terminated elsewhere, or none/, checked: true }));
      expect(await first.getByRole('radio', { name: /^Automatic/ }).count()).toBe(0);
      const domainName = `${site.name}.example.com`;
      await first.getByLabel('Domain name').fill(domainName);
      await second.getByLabel('Domain name').fill(domainName);
      await second.getByRole('radio', { name: /^Certificate of your own/ }).check();
      await save.click();
      await expect.poll(() => fieldError(second, 'Domain name').textContent()).toBe('Duplicate domain');
      await expect.poll(() => fieldError(second, 'Certificate').textContent()).toBe('Input is required');
      expect(await first.getByRole('textbox', { name: /^Certificate/ }).count()).toBe(0);
      await second.getByRole('textbox', { name: /^Certificate/ }).fill('not a certificate');
      await second.getByLabel('Private key').fill('not a key');
      await save.click();
      await expect.poll(() => fieldError(second, 'Certificate').textContent()).toBe('Must be a PEM certificate chain');
      await expect.poll(() => fieldError(second, 'Private key').textContent()).toBe('Must be a PEM RSA private key');
      // One primary domain: choosing the second unchooses the first.
      await first.getByRole('switch', { name: 'Primary domain' }).click({ force: true });
      await second.getByRole('switch', { name: 'Primary domain' }).click({ force: true });
      expect(await first.getByRole('switch', { name: 'Primary domain' }).isChecked()).toBe(false);
      await second.getByRole('button', { name: 'Remove domain 2' }).click();
      await first.getByRole('switch', { name: 'Primary domain' }).click({ force: true });
      await snap(page, 'site-settings-general');
      await save.click();
      await expectVisible(toast(page, 'Site saved'));
      await expect.poll(() => save.isDisabled()).toBe(true);
      const saved = expectStatus(await stage.world.clients.owner.get(`/api/v1/sites/${site._id}`), 200);
      expect(saved.spa).toBe(true);
      expect(saved.domains).toEqual([
        {
          name: domainName,
          exposeBranches: false,
          primary: true,
          sslConfiguration: { type: 'external' },
          ownership: { token: expect.stringMatching(/^wharf-/), verifiedAt: null },
        },
      ]);

      await page.locator('input[type=file]').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
      await expectVisible(page.getByRole('main').getByRole('img', { name: `Logo of ${site.name}` }));
      await expectVisible(page.getByRole('navigation').getByRole('img', { name: `Logo of ${site.name}` }));
      await context.close();
    });

    it('shows how to verify a saved domain, why a check failed, and that it is verified', async () => {
      const site = await newSite('owned');
      const name = `${site.name}.example.com`;
      const domains = [{ name, exposeBranches: true, sslConfiguration: { type: 'external' } }];
      const settings = { name: site.name, color: '#228be6', mainBranch: site.mainBranch, spa: false, domains };
      const saved = expectStatus(await stage.world.clients.owner.put(`/api/v1/sites/${site._id}`, settings), 200);
      const { token } = saved.domains[0].ownership;
      const { context, page } = await visit(stage, { user: 'teammate', orgId: stage.world.org._id });
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      await page.goto(`/sites/${site._id}/settings`);
      const panel = page.getByRole('group', { name: 'Domain 1' }).getByLabel(`Ownership of ${name}`);
      await expectVisible(panel.getByText('Not verified', { exact: true }));
      await expectVisible(panel.getByText(`_wharf.${name}`));
      await panel.getByRole('button', { name: "Copy the record's value" }).click();
      await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(token);
      await expectVisible(panel.getByText(`http://${name}/.well-known/wharf-ownership/${token}`));

      // The record that makes the domain reach this Wharf, checked live: the DNS peer answers every
      // name with this machine's address, as the site's own address has; then the domain moves away.
      const records = page.getByRole('group', { name: 'Domain 1' }).getByLabel(`DNS of ${name}`);
      await expectVisible(records.getByText('Points here', { exact: true }));
      await expectVisible(records.getByRole('row', { name: `CNAME ${name} ${new URL(site.url).hostname}` }));
      await dns.addA(name, ['192.0.2.1']);
      await page.reload();
      await expectVisible(records.getByText('Awaiting DNS', { exact: true }));
      await expectVisible(records.getByText(new RegExp(`${name} has the address 192.0.2.1`)));
      await records.scrollIntoViewIfNeeded();
      await snap(page, 'site-settings-domain-dns');
      await dns.clearA(name);
      await records.getByRole('button', { name: 'Check again' }).click();
      await expectVisible(records.getByText('Points here', { exact: true }));

      await panel.getByRole('button', { name: 'Verify now' }).click();
      await expectVisible(panel.getByText(`there is no TXT record _wharf.${name}`));
      await panel.scrollIntoViewIfNeeded();
      await snap(page, 'site-settings-domain-not-verified');

      await dns.setTxt(`_wharf.${name}`, token);
      await panel.getByRole('button', { name: 'Verify now' }).click();
      await expectVisible(toast(page, `${name} is verified`));
      const domain = page.getByRole('group', { name: 'Domain 1' });
      await expectVisible(domain.getByText('Verified', { exact: true }));
      await expect.poll(() => page.getByRole('button', { name: 'Save' }).first().isDisabled()).toBe(true);
      await snap(page, 'site-settings-domain-verified');
      await context.close();
    });

    it("warns that a domain's own certificate ends within 14 days", async () => {
      const site = await newSite('expiring');
      const name = `${site.name}.example.com`;
      // openssl makes it valid for two days.
      const certificate = selfSignedCertificate(name);
      const domains = [{ name, exposeBranches: false, sslConfiguration: { type: 'manual', ...certificate } }];
      const settings = { name: site.name, color: '#228be6', mainBranch: site.mainBranch, spa: false, domains };
      expectStatus(await stage.world.clients.owner.put(`/api/v1/sites/${site._id}`, settings), 200);
      const { context, page } = await visit(stage, { user: 'teammate', orgId: stage.world.org._id });
      await page.goto(`/sites/${site._id}/settings`);
      const domain = page.getByRole('group', { name: 'Domain 1' });
      await expectVisible(domain.getByText('Expires in 2 days'));
      await expectVisible(domain.getByText(`covers ${name}`));
      await domain.getByText('Expires in 2 days').scrollIntoViewIfNeeded();
      await snap(page, 'site-settings-certificate-expiring');
      // Another chain pasted: what was read from the saved one no longer applies.
      await domain.getByRole('textbox', { name: /^Certificate/ }).fill(selfSignedCertificate(name).fullchain);
      await expectHidden(domain.getByText('Expires in 2 days'));
      await context.close();
    });

    it('connects a repository, shows the deploy key to add at the forge, replaces it and disconnects', async () => {
      const site = await newSite('built');
      const { context, page } = await visit(stage, { user: 'teammate', orgId: stage.world.org._id });
      await page.goto(`/sites/${site._id}/settings/repository`);
      await expectVisible(page.getByRole('heading', { name: 'Connect a repository' }));
      await page.getByLabel('Repository URL').fill('https://ci:secret@git.example.com/acme/shop.git');
      await page.getByLabel('Publish directory').fill('../outside');
      await page.getByRole('button', { name: 'Save' }).click();
      await expectVisible(fieldError(page, 'Repository URL').getByText('Must not hold a user name, password or token'));
      await expectVisible(fieldError(page, 'Publish directory').getByText('Must stay inside the repository'));
      await snap(page, 'site-settings-repository-refused');

      await page.getByLabel('Repository URL').fill('git@git.example.com:acme/shop.git');
      await page.getByLabel('Publish directory').fill('dist');
      await page.getByLabel('Build command').fill('npm ci && npm run build');
      await page.getByRole('radio', { name: 'Build the branches listed below' }).check();
      await page.getByRole('textbox', { name: 'Branches', exact: true }).fill('feature/*');
      await page.getByRole('textbox', { name: 'Branches', exact: true }).press('Enter');
      await page.getByRole('button', { name: 'Save' }).click();
      await expectVisible(toast(page, 'Repository connected'));
      const key = page.getByLabel('Public deploy key', { exact: true });
      await expectVisible(key.getByText(new RegExp(`^ssh-ed25519 \\S+ wharf-${site.name}$`)));
      const saved = expectStatus(await stage.world.clients.owner.get(`/api/v1/sites/${site._id}/repository`), 200);
      expect(saved).toMatchObject({ publishDirectory: 'dist', branchDeploys: 'listed', branches: ['feature/*'] });
      await key.scrollIntoViewIfNeeded();
      await snap(page, 'site-settings-repository');

      const first = await key.textContent();
      await page.getByRole('button', { name: 'Replace key' }).click();
      await page
        .getByRole('dialog', { name: 'Replace the deploy key' })
        .getByRole('button', { name: 'Replace key' })
        .click();
      await expectVisible(toast(page, 'Deploy key replaced: add the new one at your forge'));
      await expect.poll(() => key.textContent()).not.toBe(first);

      await page.getByRole('button', { name: 'Disconnect' }).click();
      await page
        .getByRole('dialog', { name: 'Disconnect the repository' })
        .getByRole('button', { name: 'Disconnect' })
        .click();
      await expectVisible(page.getByRole('heading', { name: 'Connect a repository' }));
      expect(expectStatus(await stage.world.clients.owner.get(`/api/v1/sites/${site._id}/repository`), 200)).toBeNull();
      await context.close();
    });
  },
);
