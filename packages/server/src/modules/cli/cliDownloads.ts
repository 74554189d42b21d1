import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { SERVER_PACKAGE_DIR } from '../../packageDir.ts';
import { API_VERSION } from '../../version.ts';

type Standalone = typeof import('../../../../cli/scripts/standalone.mjs');

/** One file of the CLI as this installation serves it. */
export interface CliDownload {
  body: Buffer;
  contentType: string;
  /** Strong: the same version gives the same bytes on every node (the bundle and the pack are reproducible). */
  etag: string;
  /** Set for the tarball, so a download keeps the name `npm pack` would give it. */
  fileName?: string;
}

export interface CliDownloads {
  'wharf.mjs': CliDownload;
  'wharf-cli.tgz': CliDownload;
}

const download = (body: Buffer, contentType: string, fileName?: string): CliDownload => ({
  body,
  contentType,
  etag: `"${createHash('sha256').update(body).digest('base64url')}"`,
  fileName,
});

/** Where a release package (scripts/release.mjs) keeps the CLI it was built with. */
const PREBUILT_DIR = path.join(SERVER_PACKAGE_DIR, 'cli');

/** The CLI a release package carries, made when the package was; null in the repository. */
async function prebuiltDownloads(): Promise<CliDownloads | null> {
  const tarballName = `wharf-cli-${API_VERSION}.tgz`;
  const [bundle, tarball] = await Promise.all([
    readFile(path.join(PREBUILT_DIR, 'wharf.mjs')).catch(() => null),
    readFile(path.join(PREBUILT_DIR, tarballName)).catch(() => null),
  ]);
  if (!bundle || !tarball) return null;
  return {
    'wharf.mjs': download(bundle, 'text/javascript; charset=utf-8'),
    'wharf-cli.tgz': download(tarball, 'application/gzip', tarballName),
  };
}

async function makeDownloads(): Promise<CliDownloads> {
  const prebuilt = await prebuiltDownloads();
  if (prebuilt) return prebuilt;
  // The CLI package's own script makes them, as it makes the package to publish. Imported by its
  // path from the package folder: it must not be bundled into the server, whose bundle lives in dist/.
  const script = pathToFileURL(path.join(SERVER_PACKAGE_DIR, '../cli/scripts/standalone.mjs')).href;
  const standalone: Standalone = await import(script);
  const bundle = await standalone.bundleCli(API_VERSION);
  // esbuild keeps a helper process running after a build; the server builds only this once.
  await (await import('esbuild')).stop();
  const tarball = await standalone.packCli(API_VERSION, bundle);
  return {
    'wharf.mjs': download(bundle, 'text/javascript; charset=utf-8'),
    'wharf-cli.tgz': download(tarball, 'application/gzip', standalone.tarballNameOf(API_VERSION)),
  };
}

let made: Promise<CliDownloads> | undefined;

/**
 * The CLI of this installation's version: the one its release package carries, or else bundled
 * at the first request for it (a fraction of a second, in the repository), and kept for the life of the process: its sources do not change under a running server.
 * A failed build is not kept, so the next request tries again.
 */
export function cliDownloads(): Promise<CliDownloads> {
  made ??= makeDownloads().catch((error: unknown) => {
    made = undefined;
    throw error;
  });
  return made;
}
