import { mkdirSync } from 'node:fs';
import path from 'node:path';
import {
  buildWorld,
  expectStatus,
  startTestServer,
  TEST_PASSWORD,
  type TestServer,
  type World,
} from '@wharf/server/testing';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { launchBrowser } from './browser.ts';
import { traceOnFailure } from './trace.ts';

export { expectStatus };

/** One file's stage: a real Wharf serving the built console, its world of users, and Chromium. */
export interface Stage {
  server: TestServer;
  world: World;
  browser: Browser;
  close(): Promise<void>;
}

/**
 * What Chromium refused under the console's Content-Security-Policy, in any page of the open stage.
 * A worker runs its files one after another in one process, so close() empties it for the next.
 */
const cspViolations: string[] = [];

/** `port`: when a peer must know Wharf's URL before it starts (an OAuth redirect URI). */
export async function openStage(env: Record<string, string> = {}, options: { port?: number } = {}): Promise<Stage> {
  const [server, browser] = await Promise.all([
    startTestServer({ serveConsole: true, env, ...options }),
    launchBrowser(),
  ]);
  const world = await buildWorld(server.url);
  return {
    server,
    world,
    browser,
    async close() {
      await Promise.all([browser.close(), server.close()]);
      // Every journey doubles as a check that the console works under its own policy.
      expect(cspViolations.splice(0)).toEqual([]);
    },
  };
}

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 375, height: 812 };

export interface VisitOptions {
  /** Signs this test user in before the first page loads. */
  user?: string;
  /** Stores this organization as the current one before the first page loads. */
  orgId?: string;
  viewport?: { width: number; height: number };
  /** Keeps the one-time analytics notice: only its own journey wants it. */
  withAnalyticsNotice?: boolean;
}

/** A fresh browser context on the stage's server, signed in and with a current organization if asked. */
export async function visit(
  stage: Pick<Stage, 'browser' | 'server'>,
  options: VisitOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await stage.browser.newContext({
    baseURL: stage.server.url,
    viewport: options.viewport ?? DESKTOP,
    colorScheme: 'light',
    // No transitions (the console respects the setting): a click never lands in a modal still moving into place.
    reducedMotion: 'reduce',
  });
  context.setDefaultTimeout(10_000);
  // A navigation loads and parses the console's scripts: with the suite's server files busy on
  // both cores it once took over 10 s (`goto('/org')`), where no click or text ever came close.
  context.setDefaultNavigationTimeout(30_000);
  await traceOnFailure(context);
  context.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text()))
      cspViolations.push(`${message.page()?.url()}: ${message.text()}`);
  });
  if (options.user) {
    const answer = await context.request.post('/auth/in-memory', {
      data: { user: options.user, password: TEST_PASSWORD },
    });
    expect(answer.status()).toBe(200);
  }
  const stored: Record<string, string> = {};
  if (options.orgId) stored['wharf.currentOrg'] = options.orgId;
  if (!options.withAnalyticsNotice) stored['wharf.analyticsNotice'] = 'hidden';
  // Only before the first page: later pages keep what the console itself stored.
  await context.addInitScript((entries: Record<string, string>) => {
    if (sessionStorage.getItem('e2e.seeded')) return;
    sessionStorage.setItem('e2e.seeded', '1');
    for (const [key, value] of Object.entries(entries)) localStorage.setItem(key, value);
  }, stored);
  const page = await context.newPage();
  return { context, page };
}

export function pathOf(page: Page): string {
  return new URL(page.url()).pathname;
}

/** Waits until the console shows this path (after any redirects). */
export async function expectPath(page: Page, pathname: string) {
  await page.waitForURL((url) => url.pathname === pathname, { timeout: 10_000 });
  expect(pathOf(page)).toBe(pathname);
}

export async function expectVisible(locator: Locator) {
  await locator.first().waitFor({ state: 'visible', timeout: 10_000 });
}

export async function expectHidden(locator: Locator) {
  await locator.first().waitFor({ state: 'hidden', timeout: 10_000 });
}

/** A toast (Mantine notification) with this text. */
export function toast(page: Page, text: string | RegExp) {
  return page.locator('.mantine-Notification-root').filter({ hasText: text });
}

/** A failure toast: titled with the action ('Could not update team'), the server's message as its body. */
export function failureToast(page: Page, action: string, message: string | RegExp = /./) {
  const title = new RegExp(`^Could not ${action.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  return page
    .locator('.mantine-Notification-root')
    .filter({ has: page.locator('.mantine-Notification-title', { hasText: title }) })
    .filter({ has: page.locator('.mantine-Notification-description', { hasText: message }) });
}

/** The error shown under the form field of this label (its required asterisk aside). */
export function fieldError(scope: Page | Locator, label: string) {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const page = 'page' in scope ? scope.page() : scope;
  return scope
    .locator('.mantine-InputWrapper-root')
    .filter({ has: page.locator('label', { hasText: new RegExp(`^${escaped}\\s*\\*?$`) }) })
    .locator('.mantine-InputWrapper-error');
}

const screenshotDir = process.env.WHARF_SCREENSHOTS;

/**
 * Screenshots of the current screen at desktop and phone width, light and dark, when
 * WHARF_SCREENSHOTS names a directory; nothing otherwise.
 */
export async function snap(page: Page, name: string) {
  if (!screenshotDir) return;
  mkdirSync(screenshotDir, { recursive: true });
  const viewport = page.viewportSize() ?? DESKTOP;
  for (const [size, dimensions] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(dimensions);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      // Mantine follows the system scheme through this attribute; transitions are finished by the screenshot.
      await page.locator(`html[data-mantine-color-scheme="${scheme}"]`).waitFor({ state: 'attached' });
      await page.screenshot({
        path: path.join(screenshotDir, `${name}-${size}-${scheme}.png`),
        fullPage: true,
        animations: 'disabled',
      });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(viewport);
}
