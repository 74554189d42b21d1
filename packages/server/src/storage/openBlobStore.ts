import path from 'node:path';
import type { Config } from '../config.ts';
import { FileBlobStore } from './blobStore.ts';

/** The blob store of this installation: every process (server, workers, backup) opens it here. */
export function openBlobStore(config: Config) {
  return new FileBlobStore(path.join(config.dataDir, 'blobs'));
}
