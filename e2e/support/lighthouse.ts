import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort, TEST_PASSWORD } from '@wharf/server/testing';
import { snapshot } from 'lighthouse';
import { pageFunctions } from 'lighthouse/core/lib/page-functions.js';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import puppeteer, { type Browser as PuppeteerBrowser, type Page as PuppeteerPage } from 'puppeteer-core';
import { BROWSER_FLAGS } from './browser.ts';
import { CHROMIUM } from './chromium.ts';
import type { Stage } from './journey.ts';

/**
 * Before every snapshot Lighthouse measures the machine: two busy loops of half a second each in
 * the page, whose index only calibrates the performance category's throttling. The accessibility
 * category never reads it, and on a 2-core machine that second of CPU per page is taken from the
 * suites running beside the audits (40 pages a file). The measured page function is replaced by
 * one answering a desktop-class index at once; the audits themselves are unchanged.
 */
if (typeof pageFunctions.computeBenchmarkIndex === 'function') {
  pageFunctions.computeBenchmarkIndex = function computeBenchmarkIndex() {
    return 1000;
  };
}

/** A failed accessibility audit that counts in Lighthouse's score, with the elements it names. */
export interface Failure {
  audit: string;
  title: string;
  elements: string[];
}

export interface Auditor {
  /** Opens the console's `route` in the scheme and answers Lighthouse's accessibility score (0–100) and what failed. */
  audit(route: string, scheme: 'light' | 'dark'): Promise<{ score: number; failures: Failure[] }>;
  page: Page;
  close(): Promise<void>;
}

/** What one of Lighthouse's audits names: each element's selector and why. */
function elementsOf(details: unknown): string[] {
  const items = (details as { items?: { node?: { selector?: string; explanation?: string } }[] })?.items ?? [];
  return items.map(
    (item) => `${item.node?.selector ?? '?'}: ${item.node?.explanation?.split('\n').slice(-1)[0] ?? ''}`,
  );
}

/**
 * Lighthouse's accessibility category over the console's pages, as a signed-in user (or signed
 * out) sees them: Chromium opens each route through Playwright, and Lighthouse audits the page as
 * it stands (a snapshot: the page is loaded once, not again by Lighthouse) through the same browser.
 */
export async function openAuditor(stage: Pick<Stage, 'server' | 'world'>, user: string | null): Promise<Auditor> {
  const port = await freePort();
  const profile = await mkdtemp(path.join(os.tmpdir(), 'wharf-lighthouse-'));
  const context: BrowserContext = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: [...BROWSER_FLAGS, `--remote-debugging-port=${port}`],
    viewport: { width: 1280, height: 800 },
  });
  if (user) {
    const answer = await context.request.post(`${stage.server.url}/auth/in-memory`, {
      data: { user, password: TEST_PASSWORD },
    });
    if (answer.status() !== 200) throw new Error(`could not sign ${user} in: ${answer.status()}`);
  }
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`${stage.server.url}/legal`);
  await page.evaluate((orgId) => {
    localStorage.setItem('wharf.currentOrg', orgId);
    localStorage.setItem('wharf.analyticsNotice', 'hidden');
  }, stage.world.org._id);
  const browser: PuppeteerBrowser = await puppeteer.connect({
    browserURL: `http://127.0.0.1:${port}`,
    defaultViewport: null,
  });
  const target = (await browser.pages()).find((candidate) => candidate.url().startsWith(stage.server.url));
  if (!target) throw new Error('Lighthouse found no page of the console to audit');
  return {
    page,
    async audit(route, scheme) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(`${stage.server.url}${route}`);
      await page.locator(`html[data-mantine-color-scheme="${scheme}"]`).waitFor({ state: 'attached' });
      // Initialized: the root stays aria-busy until the first page shows. Without this, a busy
      // machine had Lighthouse audit the boot screen, which has no main landmark (ci of 12-01).
      await page.locator('#root:not([aria-busy])').waitFor({ state: 'attached' });
      // Loaded: no skeleton left, and the network quiet (a chart, a list's second request).
      await page.waitForLoadState('networkidle');
      await page.locator('.mantine-Skeleton-root').first().waitFor({ state: 'detached' });
      return scoreOf(target as PuppeteerPage);
    },
    async close() {
      await browser.disconnect();
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

async function scoreOf(target: PuppeteerPage) {
  const result = await snapshot(target, {
    config: {
      extends: 'lighthouse:default',
      settings: {
        onlyCategories: ['accessibility'],
        // The full-page screenshot only illustrates a report's elements: a second a page, unread here.
        disableFullPageScreenshot: true,
      },
    },
    flags: { logLevel: 'error', screenEmulation: { disabled: true }, formFactor: 'desktop' },
  });
  const lhr = result!.lhr;
  const category = lhr.categories.accessibility!;
  const weighted = category.auditRefs.filter((ref) => ref.weight > 0).map((ref) => lhr.audits[ref.id]!);
  const failures = weighted
    .filter((audit) => audit.score !== null && audit.score < 1)
    .map((audit) => ({ audit: audit.id, title: audit.title, elements: elementsOf(audit.details) }));
  return { score: Math.round((category.score ?? 0) * 100), failures };
}
