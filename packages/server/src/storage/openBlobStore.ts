import path from 'node:path';
import type { Config } from '../config/types.ts';
import type { OutageLogger } from '../lib/outage.ts';
import type { BlobStore } from './blobStore.ts';
import { FileBlobStore } from './fileBlobStore.ts';
import { S3BlobStore, s3ClientFor } from './s3BlobStore.ts';

/**
 * The blob store of this installation: every process (server, workers, backup) opens it here.
 * `log` hears of its outages.
 */
export function openBlobStore(config: Config, log: OutageLogger): BlobStore {
  const { storage } = config;
  if (storage.kind === 's3') {
    const client = s3ClientFor(storage, config.extraCaCerts);
    return new S3BlobStore(storage, path.join(config.dataDir, 'staging'), log, client);
  }
  return new FileBlobStore(path.join(config.dataDir, 'blobs'));
}
