import { writeFile } from 'node:fs/promises';
import { launch } from 'chrome-launcher';
import lighthouse, { type Flags, type Result } from 'lighthouse';
import puppeteer, { type Page } from 'puppeteer-core';

/** Debian's Chromium: the bench never downloads a browser. */
export const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';

/**
 * Headless, and nothing that reaches beyond this machine: every host but localhost and 127.0.0.1 fails to
 * resolve, and the background services that would phone home are off (chrome-launcher turns off
 * more of them by default).
 */
const CHROMIUM_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1',
];

const CATEGORIES = ['performance', 'accessibility', 'best-practices'];

/** What the browser holds before the page is opened, as a returning user's browser would. */
export interface Visitor {
  /** `name=value` of the session cookie. */
  cookie?: string;
  localStorage?: Record<string, string>;
}

export interface PageFigures {
  label: string;
  /** Bytes on the wire (headers included) of the requests started before the first contentful paint. */
  jsBeforePaint: number;
  cssBeforePaint: number;
  /** The same for the whole load, until the network is idle. */
  jsTotal: number;
  performance: number;
  accessibility: number;
  bestPractices: number;
  /** Lighthouse's simulated mobile timings, in milliseconds. */
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  /** The scored accessibility and best-practices audits that did not pass, by id. */
  failing: string[];
  /** Lighthouse's measure of this machine's speed during the run (a typical desktop: 1,000 to 2,000). */
  benchmarkIndex: number;
}

interface NetworkRequest {
  url: string;
  resourceType?: string;
  transferSize?: number;
  networkRequestTime?: number;
}

/** The cookie and the stored values go in while on the origin, without loading the page measured. */
async function prepare(page: Page, url: string, visitor: Visitor) {
  const origin = new URL(url).origin;
  if (visitor.cookie) {
    const [name = '', value = ''] = visitor.cookie.split(/=(.*)/s);
    await page.browser().setCookie({ name, value, domain: new URL(url).hostname, path: '/', httpOnly: true });
  }
  if (visitor.localStorage) {
    // Any address of the origin opens its storage; this one loads none of the console's files.
    await page.goto(`${origin}/bench-storage-setup.txt`);
    // Runs in the page, where `localStorage` is the origin's.
    await page.evaluate((entries) => {
      const storage = (globalThis as unknown as { localStorage: { setItem(key: string, value: string): void } })
        .localStorage;
      for (const [key, value] of entries) storage.setItem(key, value);
    }, Object.entries(visitor.localStorage));
  }
  await page.goto('about:blank');
}

function requestsOf(lhr: Result): NetworkRequest[] {
  const details = lhr.audits['network-requests']?.details;
  return details?.type === 'table' ? (details.items as unknown as NetworkRequest[]) : [];
}

function firstContentfulPaintOf(lhr: Result): number {
  const details = lhr.audits.metrics?.details;
  const metrics = details?.type === 'debugdata' ? (details.items?.[0] as Record<string, number>) : undefined;
  const observed = metrics?.observedFirstContentfulPaint;
  if (observed === undefined) throw new Error(`Lighthouse saw no first contentful paint on ${lhr.finalDisplayedUrl}`);
  return observed;
}

const bytesOf = (requests: NetworkRequest[], type: string) =>
  requests.filter((request) => request.resourceType === type).reduce((sum, r) => sum + (r.transferSize ?? 0), 0);

const score = (lhr: Result, category: string) => Math.round((lhr.categories[category]?.score ?? 0) * 100);

function failingAudits(lhr: Result) {
  return ['accessibility', 'best-practices'].flatMap((category) =>
    (lhr.categories[category]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => ref.id),
  );
}

function figuresOf(label: string, lhr: Result): PageFigures {
  const requests = requestsOf(lhr);
  const paint = firstContentfulPaintOf(lhr);
  const beforePaint = requests.filter((request) => (request.networkRequestTime ?? Number.POSITIVE_INFINITY) < paint);
  const metric = (id: string) => Math.round(lhr.audits[id]?.numericValue ?? Number.NaN);
  return {
    label,
    jsBeforePaint: bytesOf(beforePaint, 'Script'),
    cssBeforePaint: bytesOf(beforePaint, 'Stylesheet'),
    jsTotal: bytesOf(requests, 'Script'),
    performance: score(lhr, 'performance'),
    accessibility: score(lhr, 'accessibility'),
    bestPractices: score(lhr, 'best-practices'),
    fcpMs: metric('first-contentful-paint'),
    lcpMs: metric('largest-contentful-paint'),
    tbtMs: metric('total-blocking-time'),
    failing: failingAudits(lhr),
    benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
  };
}

async function auditOnce(label: string, url: string, visitor: Visitor, reportFile?: string): Promise<PageFigures> {
  const chrome = await launch({ chromePath: CHROMIUM, chromeFlags: CHROMIUM_FLAGS });
  try {
    const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}`, defaultViewport: null });
    const page = await browser.newPage();
    await prepare(page, url, visitor);
    const flags: Flags = { logLevel: 'error', onlyCategories: CATEGORIES, disableStorageReset: true };
    const result = await lighthouse(url, flags, undefined, page);
    await browser.disconnect();
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    if (result.lhr.runtimeError) throw new Error(`Lighthouse failed on ${url}: ${result.lhr.runtimeError.message}`);
    if (reportFile) await writeFile(reportFile, JSON.stringify(result.lhr));
    return figuresOf(label, result.lhr);
  } finally {
    chrome.kill();
  }
}

/** Runtime errors of Lighthouse that say nothing about the page: the run is made again. */
const FLAKY = /NO_NAVSTART|NO_FCP|PROTOCOL_TIMEOUT/;

/**
 * One Lighthouse run with its mobile defaults (simulated slow 4G and a 4× slower CPU) in a fresh
 * Chromium, so that the cache starts empty. Lighthouse leaves the storage alone: it holds what
 * `visitor` put there. `reportFile` keeps Lighthouse's whole report (JSON, for the Lighthouse viewer).
 */
export async function audit(label: string, url: string, visitor: Visitor = {}, reportFile?: string) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await auditOnce(label, url, visitor, reportFile);
    } catch (error) {
      if (attempt === 3 || !FLAKY.test(String(error))) throw error;
      console.log(`  (${label}: ${String(error).slice(0, 120)}; again)`);
    }
  }
}
