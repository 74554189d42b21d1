import { dismissConsoleNotice, showConsoleNotice } from './consoleNotice.ts';

/** Written into index.html by the build (build/consoleBuild.ts); absent under `vite dev`. */
const BUILD_META = 'meta[name="wharf-console-build"]';

const buildOf = (page: Document) => page.querySelector<HTMLMetaElement>(BUILD_META)?.content ?? null;

/** The build this tab runs: the one its page named when it loaded. */
const runningBuild = buildOf(document);

/** The build the server serves now; null when it cannot be asked (unreachable, or no build names). */
async function servedBuild(): Promise<string | null> {
  try {
    const answer = await fetch('/', {
      cache: 'no-store',
      credentials: 'same-origin',
      headers: { accept: 'text/html' },
    });
    if (!answer.ok) return null;
    return buildOf(new DOMParser().parseFromString(await answer.text(), 'text/html'));
  } catch {
    return null;
  }
}

/** The build the server serves instead of this tab's, if it was upgraded under it. */
export async function newerBuild(): Promise<string | null> {
  if (!runningBuild) return null;
  const served = await servedBuild();
  return served !== null && served !== runningBuild ? served : null;
}

/** Remembers, for this tab, the build it reloaded into: a page still broken after that reload must not loop. */
const RELOADED_FOR = 'wharf.reloadedForBuild';
let reloading = false;

/**
 * Reloads the page into `build`, once per tab and build. False when it already did (the new
 * build fails too) or cannot remember that it did (storage refused): a message is better than a loop.
 */
export function reloadOnceInto(build: string): boolean {
  if (reloading) return true;
  try {
    if (sessionStorage.getItem(RELOADED_FOR) === build) return false;
    sessionStorage.setItem(RELOADED_FOR, build);
  } catch {
    return false;
  }
  reloading = true;
  showConsoleNotice('reloading');
  window.location.reload();
  return true;
}

/** The newer build this tab was last offered, and the one its reader put off ("Later"). */
let offeredBuild: string | null = null;
let putOffBuild: string | null = null;

/**
 * Asks whether the server was upgraded under this tab; if so, offers a reload (the page may hold
 * unsaved input). A build put off is not offered again: the tab asks on every reconnection of its
 * live updates and every return to view, and "Later" must hold.
 */
export async function checkForNewBuild() {
  const build = await newerBuild();
  if (!build || build === putOffBuild) return;
  offeredBuild = build;
  showConsoleNotice('newBuild');
}

/** "Later": the offer goes, and this build is not offered again in this tab (a newer one would be). */
export function putOffNewBuild() {
  putOffBuild = offeredBuild;
  dismissConsoleNotice();
}

/** How often a tab coming back into view asks again. */
const CHECK_EVERY_MS = 10 * 60_000;

/** A tab left open for days learns of an upgrade when it is looked at again. */
export function watchForNewBuilds() {
  let checkedAt = Date.now();
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState !== 'visible' || Date.now() - checkedAt < CHECK_EVERY_MS) return;
    checkedAt = Date.now();
    void checkForNewBuild();
  });
}
