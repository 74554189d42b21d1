import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ManifestEntry, ReleaseSource } from '@wharf/contract';
import tar from 'tar-stream';
import type { Database } from '../../../db/schema.ts';
import type { ReleaseParts } from '../../releases/parts.ts';
import { receiveDeployFiles } from '../../releases/upload/deployFiles.ts';
import { finishDeploy, startDeploy } from '../../releases/upload/incremental.ts';
import type { BuildLog } from './buildLog.ts';

import { openPlainFile } from './plainFiles.ts';

interface FoundFile extends ManifestEntry {
  /** Where it is on this machine. */
  file: string;
}

async function hashOf(file: string) {
  const handle = await openPlainFile(file);
  const hash = createHash('sha256');
  let size = 0;
  try {
    for await (const chunk of handle.createReadStream({ autoClose: false })) {
      hash.update(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
  } finally {
    await handle.close();
  }
  return { hash: hash.digest('hex'), size };
}

/** Every plain file under `root`, hashed; links and other special files are left out, and said so. */
export async function filesOf(root: string, log: BuildLog): Promise<FoundFile[]> {
  const found: FoundFile[] = [];
  const visit = async (folder: string, prefix: string) => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const file = path.join(folder, entry.name);
      const releasePath = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await visit(file, releasePath);
      else if (entry.isFile()) found.push({ path: releasePath, file, ...(await hashOf(file)) });
      else log.say(`Left out ${releasePath}: ${entry.isSymbolicLink() ? 'a symbolic link' : 'not a plain file'}`);
    }
  };
  await visit(root, '');
  return found.sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** The files the store lacks, as the tar the deploy path takes (entries named by their hash). */
function tarOf(files: FoundFile[], missing: Set<string>): Readable {
  const pack = tar.pack();
  const sent = new Set<string>();
  void (async () => {
    try {
      for (const file of files) {
        if (!missing.has(file.hash) || sent.has(file.hash)) continue;
        sent.add(file.hash);
        const handle = await openPlainFile(file.file);
        const entry = pack.entry({ name: file.hash, size: file.size });
        await new Promise<void>((resolve, reject) => {
          const stream = createReadStream('', { fd: handle.fd, autoClose: false });
          stream.on('error', reject);
          entry.on('error', reject);
          entry.on('finish', resolve);
          stream.pipe(entry);
        }).finally(() => handle.close());
      }
      pack.finalize();
    } catch (error) {
      pack.destroy(error as Error);
    }
  })();
  return Readable.from(pack, { objectMode: false });
}

export interface Publication {
  parts: ReleaseParts;
  site: Database['sites'];
  actorId: string | null;
  name: string;
  branch: string;
  source: ReleaseSource;
  root: string;
  log: BuildLog;
}

/**
 * Deploys the built files as the CLI does, through the incremental path: the manifest first, then
 * only the files the organization does not hold yet, then the release made and its branch pointed
 * at it. Answers the release's id and how many files were new.
 */
export async function publish(publication: Publication) {
  const { parts, site, log } = publication;
  const files = await filesOf(publication.root, log);
  const bytes = files.reduce((sum, file) => sum + file.size, 0);
  log.say(`${files.length} files, ${bytes} bytes`);
  const deploy = await startDeploy(
    parts,
    site,
    publication.actorId,
    {
      name: publication.name,
      branches: [publication.branch],
      source: publication.source,
      files: files.map(({ path, hash, size }) => ({ path, hash, size })),
    },
    null,
  );
  log.say(`${deploy.missing.length} of them new to the organization`);
  if (deploy.missing.length > 0)
    await receiveDeployFiles(parts, { id: deploy._id, orgId: site.org_id }, tarOf(files, new Set(deploy.missing)));
  const release = await finishDeploy(parts, deploy._id, site);
  return { releaseId: release._id, unchanged: release.unchanged, url: release.deployedBranches[0]?.url ?? null };
}
