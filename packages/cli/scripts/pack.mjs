#!/usr/bin/env node
// Packs the `wharf` command as the standalone npm package `wharf-cli`: one bundled ES module
// (the contract, zod and tar-stream inlined), no dependencies, runs on plain Node 20+ anywhere.
// Usage: node packages/cli/scripts/pack.mjs [destination folder]   → prints the tarball's path
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export const PACKAGE_NAME = 'wharf-cli';

const cliDir = fileURLToPath(new URL('..', import.meta.url));
const stage = path.join(cliDir, 'dist', 'standalone');
const destination = path.resolve(process.argv[2] ?? cliDir);
const { version, description } = JSON.parse(readFileSync(path.join(cliDir, 'package.json'), 'utf8'));

rmSync(stage, { recursive: true, force: true });
mkdirSync(stage, { recursive: true });
await build({
  entryPoints: [path.join(cliDir, 'src/main.ts')],
  outfile: path.join(stage, 'wharf.mjs'),
  bundle: true,
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
chmodSync(path.join(stage, 'wharf.mjs'), 0o755);
writeFileSync(
  path.join(stage, 'package.json'),
  `${JSON.stringify(
    {
      name: PACKAGE_NAME,
      version,
      description,
      type: 'module',
      bin: { wharf: './wharf.mjs' },
      files: ['wharf.mjs', 'README.md'],
      engines: { node: '>=20' },
      license: 'AGPL-3.0-only',
      keywords: ['wharf', 'deploy', 'static', 'hosting', 'ci'],
    },
    null,
    2,
  )}\n`,
);
writeFileSync(
  path.join(stage, 'README.md'),
  `# ${PACKAGE_NAME}\n\nThe \`wharf\` command: uploads a folder as a release of a site on a Wharf server, from your CI or your machine.\n\n\`\`\`sh\nnpx ${PACKAGE_NAME} upload ./dist --url https://wharf.example.com --site <siteId> --token <token>\n\`\`\`\n\n\`wharf --help\` lists the commands and their options.\n`,
);
mkdirSync(destination, { recursive: true });
const output = execFileSync('npm', ['pack', '--json', '--pack-destination', destination], {
  cwd: stage,
  encoding: 'utf8',
});
const [{ filename }] = JSON.parse(output.slice(output.indexOf('[')));
console.log(path.join(destination, filename));
