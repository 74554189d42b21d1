import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config/types.ts';
import type { Db } from '../../db/schema.ts';
import type { JobRunner } from '../../jobs/runner.ts';
import type { BlobStore } from '../../storage/blobStore.ts';
import type { DeployMetrics } from './deployMetrics.ts';

/**
 * What the release's work needs of the installation: its uploads, release creation, retention and
 * collection take these and nothing else, so a test or a command (a restore, a one-off collection)
 * gives them without building a server.
 */
export interface ReleaseParts {
  config: Config;
  db: Db;
  /** Where release files and their variants are kept. */
  blobs: BlobStore;
  log: FastifyBaseLogger;
  /** Woken when a release queued its variants, so they start at once rather than at the next poll. */
  jobs: Pick<JobRunner, 'wake'>;
  /** Deploys made and failed, for /metrics. */
  deployMetrics: DeployMetrics;
}
