import { openAsBlob } from 'node:fs';
import { wharfApi } from '../../packages/cli/src/api/wharfApi.ts';
import { hashFiles } from '../../packages/cli/src/folder/hashFiles.ts';
import { walkFolder } from '../../packages/cli/src/folder/walkFolder.ts';
import { generateSite } from './generateSite.ts';
import { createSite, startBenchServer } from './wharfServer.ts';

const count = Number(process.argv[2] ?? 3000);
const server = await startBenchServer({ WHARF_WORKERS: '1' });
const t = await createSite(server.url, 'q3');
const site = await generateSite('/tmp/q3', count, count * 10000, 31);
const files = await hashFiles(await walkFolder(site.root), () => {});
const api = wharfApi({
  url: new URL(server.url),
  token: t.token,
  retry: { attempts: 1, firstDelayMs: 1 },
  onRetry: () => {},
});
let t0 = performance.now();
const deploy = await api.startDeploy(t.siteId, {
  name: 'x',
  branches: ['main'],
  files: files.map(({ path, hash, size }) => ({ path, hash, size })),
});
console.log('manifest ms', (performance.now() - t0).toFixed(0));
const byHash = new Map(files.map((f) => [f.hash, f]));
let batch = performance.now();
let text = 0,
  bin = 0,
  tt = 0,
  tb = 0;
for (const [i, hash] of deploy.missing.entries()) {
  const f = byHash.get(hash)!;
  const s = performance.now();
  await api.uploadDeployFile(deploy._id, hash, await openAsBlob(f.absolutePath));
  const d = performance.now() - s;
  if (f.path.endsWith('.webp')) {
    bin++;
    tb += d;
  } else {
    text++;
    tt += d;
  }
  if ((i + 1) % 500 === 0) {
    console.log(
      i + 1,
      'avg ms/file',
      ((performance.now() - batch) / 500).toFixed(1),
      'text',
      (tt / text).toFixed(1),
      'bin',
      (tb / bin).toFixed(1),
    );
    batch = performance.now();
    text = bin = tt = tb = 0;
  }
}
t0 = performance.now();
await api.finalizeDeploy(deploy._id);
console.log('finalize ms', (performance.now() - t0).toFixed(0));
await server.close();
