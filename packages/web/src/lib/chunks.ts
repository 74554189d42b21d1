import { type ComponentType, lazy } from 'react';
import { newerBuild, reloadOnceInto } from './consoleBuild.ts';
import { showConsoleNotice } from './consoleNotice.ts';

/** Code of the console that could not be loaded, even on a second try. */
export class ChunkLoadError extends Error {
  override name = 'ChunkLoadError';
  constructor(cause: unknown) {
    super('Part of the console could not be loaded', { cause });
  }
}

export const isChunkLoadError = (error: unknown): error is ChunkLoadError => error instanceof ChunkLoadError;

/** A second try waits this long: a server restarting or a network coming back gets a moment. */
const RETRY_AFTER_MS = 1000;

/**
 * Stylesheets that failed to load. Their <link> stays in the document, and Vite's preloader skips
 * a stylesheet it finds there: removed, a second try asks for it again instead of going without.
 */
const failedStylesheets = new Set<HTMLLinkElement>();

function forgetFailedStylesheets() {
  for (const link of failedStylesheets) link.remove();
  failedStylesheets.clear();
}

/**
 * The one way on when code is missing: into the newer build the server serves now (once, see
 * reloadOnceInto), else a message above the page with a Reload button (ConsoleNoticeBar.tsx).
 */
async function chunkFailed() {
  const build = await newerBuild();
  if (build && reloadOnceInto(build)) return;
  showConsoleNotice('chunkFailed');
}

/**
 * Every import of code on demand goes through here: a failed load is tried once more, then
 * chunkFailed decides, and the caller gets a ChunkLoadError (which error boundaries show as
 * nothing more: the notice above the page says it).
 */
export async function loadChunk<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch {
    forgetFailedStylesheets();
    await new Promise((resolve) => setTimeout(resolve, RETRY_AFTER_MS));
  }
  try {
    return await load();
  } catch (error) {
    await chunkFailed();
    throw new ChunkLoadError(error);
  }
}

/** For a rejection of loadChunk whose caller has nothing more to do: the notice already says it. */
export function ignoreMissingChunk(error: unknown) {
  if (!isChunkLoadError(error)) throw error;
}

/** React.lazy through loadChunk. */
export function lazyChunk<P extends object>(load: () => Promise<ComponentType<P>>) {
  return lazy(async () => ({ default: await loadChunk(load) }));
}

type PropsOf<C> = C extends ComponentType<infer P> ? P & object : never;

/**
 * The component `name` of a module loaded when it first shows (lazyChunk), whose code `preload`
 * starts loading earlier; a failure there is left to the component's own load, which tries again
 * and says so.
 */
export function preloadable<M, K extends keyof M>(load: () => Promise<M>, name: K) {
  const Component = lazyChunk(async () => (await load())[name] as ComponentType<PropsOf<M[K]>>);
  return Object.assign(Component, { preload: () => load().catch(() => undefined) });
}

/**
 * Installed once at start. Vite's preloader reports each stylesheet or script it could not fetch
 * as `vite:preloadError` before the import fails: the first such failure starts asking whether
 * the server was upgraded under this tab (its old files gone), so the page reloads into the new
 * build without waiting for the second try. The import still fails as usual, into loadChunk.
 */
export function watchChunkFailures() {
  document.addEventListener(
    'error',
    (event) => {
      const target = event.target;
      if (target instanceof HTMLLinkElement && target.rel === 'stylesheet') failedStylesheets.add(target);
    },
    true,
  );
  let asked = false;
  window.addEventListener('vite:preloadError', () => {
    if (asked) return;
    asked = true;
    void newerBuild().then((build) => {
      if (build) reloadOnceInto(build);
      else asked = false;
    });
  });
}
