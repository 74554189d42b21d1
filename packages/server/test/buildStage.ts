import { setTimeout as sleep } from 'node:timers/promises';
import { expectStatus, type TestClient } from './client.ts';
import { connectToGitServer, type GitServer, startGitServer } from './gitServer.ts';
import { startTestServer, type TestServer } from './harness.ts';
import { makeBaseImages } from './podman.ts';
import { siteRequest } from './siteClient.ts';
import { buildWorld, type World } from './world.ts';

/** What the builds' suites share: a Wharf that builds in podman, a git server, a site connected to it. */
export interface BuildStage {
  git: GitServer;
  server: TestServer;
  world: World;
  owner: TestClient;
  /** `/api/v1/sites/{siteId}` of the connected site. */
  base: string;
  /** The host its main branch answers on. */
  siteHost: string;
  /** The build once it ended (two minutes at most). */
  untilFinished(buildId: string): Promise<any>;
  /** The text of each line of a build's log. */
  logOf(buildId: string): Promise<string[]>;
  /** The site's home page, as its main branch serves it now. */
  page(): Promise<string>;
  close(): Promise<void>;
}

/**
 * Starts a Wharf with builds on (podman, the base images' Node.js image, images never pulled,
 * the git server's loopback address allowed) and a site connected to a new git server.
 */
export async function startBuildStage(repositoryName: string): Promise<BuildStage> {
  await makeBaseImages();
  const git = await startGitServer(repositoryName);
  const server = await startTestServer({
    env: {
      WHARF_BUILD_RUNTIME: 'podman',
      WHARF_BUILD_PULL: 'never',
      WHARF_BUILD_IMAGES: 'docker.io/library/node:*',
      WHARF_BUILD_MEMORY: '1g',
      WHARF_BUILD_ALLOWED_PRIVATE: '127.0.0.1',
      WHARF_EXTRA_CA_CERTS: git.caFile,
    },
  });
  const world = await buildWorld(server.url);
  const owner = world.clients.owner;
  const base = `/api/v1/sites/${world.site._id}`;
  const siteHost = `${world.site.name}.localhost`;
  await connectToGitServer(owner, world.site._id, git);
  return {
    git,
    server,
    world,
    owner,
    base,
    siteHost,
    async untilFinished(buildId) {
      for (let tries = 0; tries < 600; tries++) {
        const build = expectStatus(await owner.get(`${base}/builds/${buildId}`), 200);
        if (!['queued', 'running'].includes(build.state)) return build;
        await sleep(200);
      }
      throw new Error(`the build ${buildId} did not finish in 2 minutes`);
    },
    async logOf(buildId) {
      const log = expectStatus(await owner.get(`${base}/builds/${buildId}/log`), 200);
      return log.lines.map((line: { text: string }) => line.text);
    },
    async page() {
      return (await siteRequest(Number(new URL(server.url).port), siteHost, '/')).text;
    },
    async close() {
      await server.close();
      await git.close();
    },
  };
}

/** The site's source: a build that reports what it could reach and leaves a link to a host file in its output. */
export function siteFiles(wharfPort: number, heading: string) {
  return {
    'package.json': JSON.stringify({ name: 'shop', private: true, scripts: { build: 'node build.mjs' } }),
    'package-lock.json': JSON.stringify({
      name: 'shop',
      lockfileVersion: 3,
      requires: true,
      packages: { '': { name: 'shop' } },
    }),
    'build.mjs': `
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
mkdirSync('dist', { recursive: true });
mkdirSync('node_modules/.cache', { recursive: true });
const marker = 'node_modules/.cache/builds';
const count = existsSync(marker) ? Number(readFileSync(marker, 'utf8')) + 1 : 1;
writeFileSync(marker, String(count));
symlinkSync('/etc/passwd', 'dist/passwd');
const wharf = await fetch('http://127.0.0.1:${wharfPort}/readyz').then(() => 'REACHED WHARF', (error) => 'could not reach Wharf: ' + (error.cause?.code ?? error.message));
console.log(wharf);
console.log('built by user ' + process.getuid() + ' with CI=' + process.env.CI);
writeFileSync('dist/index.html', '<h1>${heading}</h1><p>build ' + count + '</p>');
`,
  };
}
