import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { mountSmallDisk, type SmallDisk } from '@wharf/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCodes } from '../src/failures.ts';
import { type RecordingProxy, startRecordingProxy } from './recordingProxy.ts';
import { siteFolder } from './siteFolder.ts';
import { startUploadWorld, type UploadWorld } from './uploadWorld.ts';
import { runWharf } from './wharfProcess.ts';

const MiB = 1024 * 1024;

describe('wharf upload to a server whose disk is full', () => {
  let disk: SmallDisk;
  let world: UploadWorld;
  let proxy: RecordingProxy;

  beforeAll(async () => {
    disk = await mountSmallDisk(24 * MiB);
    world = await startUploadWorld({ dataDir: disk.dir });
    proxy = await startRecordingProxy(world.server.url);
  });
  afterAll(async () => {
    await proxy?.close();
    await world?.server.close();
    await disk?.unmount();
  });

  const storedFiles = async () =>
    (await readdir(path.join(disk.dir, 'blobs'), { recursive: true, withFileTypes: true }).catch(() => []))
      .filter((entry) => entry.isFile())
      .map((entry) => path.join(entry.parentPath, entry.name))
      .sort();

  it("stops at once with the server's word that its disk is full, and the server keeps nothing of the upload", async () => {
    const folder = await siteFolder({
      'index.html': '<h1>Too big for this server</h1>',
      'video.bin': randomBytes(32 * MiB),
    });
    const before = await storedFiles();
    // A real process with the real retry policy: retrying would show as more requests and "trying again".
    const run = await runWharf([
      'upload',
      folder,
      '--url',
      proxy.url,
      '--site',
      world.siteId,
      '--token',
      world.siteToken,
    ]);
    expect(run.code).toBe(exitCodes.refused);
    expect(run.stderr).toContain("wharf: The server cannot store the release: The server's disk is full");
    expect(run.stderr).not.toContain('trying again');
    const bigUploads = proxy.requests.filter((request) => request.method === 'PUT' && request.bytes > MiB);
    expect(bigUploads).toHaveLength(1);
    expect(await storedFiles()).toEqual(before);
  });
});
