import { CLI_PATHS } from '@wharf/contract';
import { feature } from '../../features/feature.ts';
import type { PartsOf } from '../../features/parts.ts';
import { API_VERSION } from '../../version.ts';
import { type CliDownloads, cliDownloads } from './cliDownloads.ts';

/**
 * The path stays while its content follows the installation's version: a client asks again each
 * time and gets 304 while it is unchanged (npm's cache does), and the new CLI after an upgrade.
 */
const CACHE_CONTROL = 'public, no-cache';

/** Whether an If-None-Match header names this ETag (or `*`). */
const matches = (ifNoneMatch: string | undefined, etag: string) =>
  ifNoneMatch?.split(',').some((tag) => ['*', etag].includes(tag.trim())) ?? false;

const needs = ['fastify'] as const;

/**
 * The `wharf` command of this installation's version, from the installation itself: CI runs
 * `npx --yes {WHARF_URL}/cli/wharf-cli.tgz upload …` and needs no package from a registry.
 */
function cliRoutes(parts: PartsOf<(typeof needs)[number]>) {
  const served: [string, keyof CliDownloads][] = [
    [CLI_PATHS.script, 'wharf.mjs'],
    [CLI_PATHS.package, 'wharf-cli.tgz'],
  ];
  for (const [urlPath, name] of served) {
    parts.fastify.get(urlPath, async (request, reply) => {
      const file = (await cliDownloads())[name];
      reply
        .header('cache-control', CACHE_CONTROL)
        .header('etag', file.etag)
        .header('x-wharf-version', API_VERSION)
        .type(file.contentType);
      if (file.fileName) reply.header('content-disposition', `attachment; filename="${file.fileName}"`);
      if (matches(request.headers['if-none-match'], file.etag)) return reply.code(304).send();
      return reply.send(file.body);
    });
  }
}

/** This version's `wharf` command, under /cli/. */
export const cliFeature = feature({ name: 'cli', needs, routes: cliRoutes });
