// `npm run release`: Wharf as one npm package, installed without the repository: the server's
// bundles, the built console, the CLI it serves, its worker threads' scripts, and a lock file of
// exactly the dependencies the bundles load (npm-shrinkwrap.json). `npm install --omit=dev` of
// the package, or `npm ci --omit=dev` in its folder, makes a running Wharf: the container image,
// the systemd unit and a bare machine install the same thing. Writes dist/release/wharf-server/
// and dist/wharf-server-VERSION.tgz.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundle, bundleServer, externalPackages } from './bundling.mjs';
import { buildConsole } from './consoleBuild.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const server = path.join(root, 'packages/server');
const out = path.join(root, 'dist/release/wharf-server');
const serverPackage = JSON.parse(readFileSync(path.join(server, 'package.json'), 'utf8'));
const rootPackage = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const version = serverPackage.version;

/** The scripts worker threads run by their path (SERVER_PACKAGE_DIR/src/…): plain JavaScript. */
const THREAD_SCRIPTS = [
  'src/db/threads/checkpoints.mjs',
  'src/modules/releases/upload/threads/unpackArchive.mjs',
  'src/modules/releases/blobs/threads/compressVariants.mjs',
];

/** Packages the server finds by their folder (require.resolve), not by an import: the API docs' pages. */
const RESOLVED_BY_PATH = ['swagger-ui-dist'];

/** The packages a thread's script imports by name (not Node's own): plain JavaScript, not bundled. */
function importedPackages(file) {
  const names = new Set();
  for (const match of readFileSync(file, 'utf8').matchAll(/^import [^'"]*['"]([^'"./][^'"]*)['"];$/gm)) {
    const specifier = match[1];
    if (specifier.startsWith('node:') || builtinModules.includes(specifier)) continue;
    const parts = specifier.split('/');
    names.add(specifier.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]);
  }
  return names;
}

/** Each package at the version installed here, which the tests ran against (the server's own copy first). */
function installedVersions(names) {
  const versions = {};
  for (const name of [...names].sort()) {
    const manifest = [server, root]
      .map((dir) => path.join(dir, 'node_modules', name, 'package.json'))
      .find((file) => existsSync(file));
    if (!manifest) throw new Error(`${name} is imported but not installed`);
    versions[name] = JSON.parse(readFileSync(manifest, 'utf8')).version;
  }
  return versions;
}

async function buildCli(cliDir) {
  const standalone = await import(path.join(root, 'packages/cli/scripts/standalone.mjs'));
  const cli = await standalone.bundleCli(version);
  mkdirSync(cliDir, { recursive: true });
  writeFileSync(path.join(cliDir, 'wharf.mjs'), cli);
  writeFileSync(path.join(cliDir, standalone.tarballNameOf(version)), await standalone.packCli(version, cli));
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
// Built straight into the package: packages/web/dist may be serving a running Wharf meanwhile.
buildConsole(path.join(out, 'console'));
await bundleServer(server, path.join(out, 'dist'));
await bundle(path.join(server, 'src/bin/wharfServer.ts'), path.join(out, 'dist/wharf-server.mjs'));
for (const script of THREAD_SCRIPTS) cpSync(path.join(server, script), path.join(out, script));
await buildCli(path.join(out, 'cli'));
mkdirSync(path.join(out, 'bin'));
writeFileSync(path.join(out, 'bin/wharf-server.mjs'), "#!/usr/bin/env node\nimport '../dist/wharf-server.mjs';\n", {
  mode: 0o755,
});
cpSync(path.join(root, 'README.md'), path.join(out, 'README.md'));

const loaded = new Set([
  ...RESOLVED_BY_PATH,
  ...(await externalPackages(path.join(server, 'src/main.ts'))),
  ...(await externalPackages(path.join(server, 'src/bin/wharfServer.ts'))),
  ...THREAD_SCRIPTS.flatMap((script) => [...importedPackages(path.join(server, script))]),
]);
// The CLI is in the package already built: esbuild, which builds it in the repository, is not needed.
loaded.delete('esbuild');
(await import('esbuild')).stop();
const manifest = {
  name: 'wharf-server',
  version,
  description: rootPackage.description,
  license: rootPackage.license,
  type: 'module',
  bin: { 'wharf-server': './bin/wharf-server.mjs' },
  scripts: { start: 'node --enable-source-maps dist/main.mjs' },
  engines: rootPackage.engines,
  dependencies: installedVersions(loaded),
};
// The install scripts reviewed for the repository, for the dependencies the package keeps.
manifest.allowScripts = Object.fromEntries(
  Object.entries(rootPackage.allowScripts ?? {}).filter(
    ([name]) => name in manifest.dependencies || name === '@scarf/scarf',
  ),
);
writeFileSync(path.join(out, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
// The lock of exactly these versions and theirs, resolved as npm resolves them for an install.
execFileSync('npm', ['install', '--package-lock-only', '--omit=dev', '--no-audit', '--no-fund', '--ignore-scripts'], {
  cwd: out,
  stdio: 'inherit',
});
execFileSync('npm', ['shrinkwrap'], { cwd: out, stdio: 'ignore' });
execFileSync('npm', ['pack', '--pack-destination', path.join(root, 'dist')], { cwd: out, stdio: 'ignore' });
console.log(
  `wrote ${path.relative(root, out)}/ and dist/wharf-server-${version}.tgz: ${Object.keys(manifest.dependencies).length} dependencies, ${readdirSync(out).join(', ')}`,
);
