import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A small static site as people keep one: Markdown pages rendered by a real dependency (`marked`,
 * packed from the npm registry into the repository, so the build's install needs no network) with
 * its lockfile, and a build script that writes the pages and a stylesheet to `dist`.
 */
export function siteFiles(edition: string): Record<string, string> {
  const pages: Record<string, string> = {};
  for (let page = 1; page <= 40; page++)
    pages[`content/page-${page}.md`] =
      `# Page ${page}\n\n${edition}\n\n${'Some *text* with [a link](/page-1.html) and `code`.\n\n'.repeat(20)}`;
  return {
    ...pages,
    'build.mjs': `
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { marked } from 'marked';
mkdirSync('dist', { recursive: true });
for (const file of readdirSync('content')) {
  const html = marked.parse(readFileSync('content/' + file, 'utf8'));
  writeFileSync('dist/' + file.replace(/\\.md$/, '.html'), '<!doctype html><link rel="stylesheet" href="/site.css">' + html);
}
writeFileSync('dist/index.html', readFileSync('dist/page-1.html'));
writeFileSync('dist/site.css', 'body { font: 16px/1.5 system-ui; max-width: 40rem; margin: auto; }');
`,
  };
}

/** `marked`, packed from the registry once: the tarball the repository vendors, and its lockfile. */
export function vendoredDependency(): Record<string, string | Buffer> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'wharf-bench-marked-'));
  try {
    execFileSync('npm', ['pack', '--silent', 'marked@15'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
    const tarball = readdirSync(dir).find((name) => name.endsWith('.tgz'))!;
    const packageJson = JSON.stringify(
      {
        name: 'bench-docs',
        private: true,
        type: 'module',
        scripts: { build: 'node build.mjs' },
        dependencies: { marked: `file:vendor/${tarball}` },
      },
      null,
      2,
    );
    mkdirSync(path.join(dir, 'vendor'));
    renameSync(path.join(dir, tarball), path.join(dir, 'vendor', tarball));
    writeFileSync(path.join(dir, 'package.json'), packageJson);
    execFileSync('npm', ['install', '--package-lock-only', '--no-audit', '--no-fund', '--silent'], { cwd: dir });
    return {
      'package.json': packageJson,
      'package-lock.json': readFileSync(path.join(dir, 'package-lock.json'), 'utf8'),
      [`vendor/${tarball}`]: readFileSync(path.join(dir, 'vendor', tarball)),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
