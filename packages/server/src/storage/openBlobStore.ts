import path from 'node:path';
import type { Config } from '../config.ts';
import type { BlobStore } from './blobStore.ts';
import { FileBlobStore } from './fileBlobStore.ts';
import { S3BlobStore, s3ClientFor } from './s3BlobStore.ts';

/** The blob store of this installation: every process (server, workers, backup) opens it here. */
export function openBlobStore(config: Config): BlobStore {
  const { storage } = config;
  if (storage.kind === 's3')
    return new S3BlobStore(storage, path.join(config.dataDir, 'staging'), s3ClientFor(storage, config.extraCaCerts));
  return new FileBlobStore(path.join(config.dataDir, 'blobs'));
}
