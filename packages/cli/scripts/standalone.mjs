// The `wharf` command as one file with no dependencies (the contract, zod and tar-stream inlined),
// and the npm package `wharf-cli` around it. Two callers make them the same way: every Wharf
// server, which serves the CLI of its own version at /cli/wharf.mjs and /cli/wharf-cli.tgz, and
// scripts/pack.mjs, which writes the package to publish.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import tar from 'tar-stream';

export const PACKAGE_NAME = 'wharf-cli';

const cliDir = fileURLToPath(new URL('..', import.meta.url));
const { description } = JSON.parse(readFileSync(path.join(cliDir, 'package.json'), 'utf8'));

/** npm's own packs date every entry 1985-10-26: the same sources give the same bytes, hence the same ETag. */
const PACKED_AT = new Date('1985-10-26T08:15:00.000Z');

/** The CLI bundled into one ES module that plain Node 20+ runs anywhere, reporting `version`. */
export async function bundleCli(version) {
  // Loaded only when a bundle is made: a server that never serves the CLI never starts esbuild.
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [path.join(cliDir, 'src/main.ts')],
    bundle: true,
    write: false,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    define: { WHARF_CLI_VERSION: JSON.stringify(version) },
    // Some bundled CommonJS (tar-stream's) calls require(): give the module one.
    banner: {
      js: "#!/usr/bin/env node\nimport { createRequire as wharfRequire } from 'node:module';\nconst require = wharfRequire(import.meta.url);",
    },
    legalComments: 'eof',
    logLevel: 'warning',
  });
  return Buffer.from(result.outputFiles[0].contents);
}

/** The package.json of `wharf-cli`: its one file is the bundle, run as `wharf`. */
export function packageJsonOf(version) {
  return {
    name: PACKAGE_NAME,
    version,
    description,
    type: 'module',
    bin: { wharf: './wharf.mjs' },
    files: ['wharf.mjs', 'README.md'],
    engines: { node: '>=20' },
    license: 'AGPL-3.0-only',
    keywords: ['wharf', 'deploy', 'static', 'hosting', 'ci'],
  };
}

const readme = `# ${PACKAGE_NAME}

The \`wharf\` command: uploads a folder as a release of a site on a Wharf server, from your CI or your machine.
Every Wharf serves the CLI of its own version, so run the one of your server:

\`\`\`sh
npx --yes https://wharf.example.com/cli/wharf-cli.tgz upload ./dist --url https://wharf.example.com --site <siteId> --token <token>
\`\`\`

\`wharf --help\` lists the commands and their options.
`;

/** Resolves when the whole archive has been read: tar-stream's pack is a readable stream. */
async function collect(readable) {
  const chunks = [];
  for await (const chunk of readable) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** The npm package tarball of `wharf-cli` (files under `package/`, as `npm pack` lays them out). */
export async function packCli(version, bundle) {
  const pack = tar.pack();
  const entries = [
    ['package/package.json', Buffer.from(`${JSON.stringify(packageJsonOf(version), null, 2)}\n`), 0o644],
    ['package/README.md', Buffer.from(readme), 0o644],
    ['package/wharf.mjs', bundle, 0o755],
  ];
  for (const [name, content, mode] of entries) pack.entry({ name, mode, mtime: PACKED_AT }, content);
  pack.finalize();
  return gzipSync(await collect(pack), { level: 9 });
}

/** The tarball's file name, as `npm pack` would name it. */
export const tarballNameOf = (version) => `${PACKAGE_NAME}-${version}.tgz`;
