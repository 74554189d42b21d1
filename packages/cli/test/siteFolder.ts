import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { onTestFinished } from 'vitest';

/** A temporary folder holding the given files (path → content), as a build would leave it; gone after the test. */
export async function siteFolder(files: Record<string, string | Buffer>): Promise<string> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'wharf-cli-'));
  onTestFinished(() => rm(root, { recursive: true, force: true }));
  await writeFiles(root, files);
  return root;
}

export async function writeFiles(root: string, files: Record<string, string | Buffer>) {
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(root, name);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
  }
}
