import type { DeployBase } from '@wharf/contract';
import type { UploadCalls } from '../api/uploadCalls.ts';
import type { FolderFile } from '../folder/hashFiles.ts';
import type { Progress } from '../output/progress.ts';
import { deployIncrementally } from './incrementalDeploy.ts';
import type { ReleaseTarget, UploadOutcome } from './outcome.ts';

/**
 * Deploys the files incrementally, or as one archive to a server that cannot. `offered` is what
 * the server offers the deploy (`deployBaseOf`), asked while the folder was read.
 */
export async function deployFiles(
  wharf: UploadCalls,
  target: ReleaseTarget,
  files: FolderFile[],
  progress: Progress,
  offered: Promise<DeployBase>,
): Promise<UploadOutcome> {
  const incremental = await deployIncrementally(wharf, target, files, progress, offered);
  if ('deployed' in incremental) return incremental.deployed;
  progress.note(`${incremental.sendArchive}: sending the whole folder as a tar.gz`);
  // Loaded only now: most uploads never need tar.
  const { uploadArchive } = await import('./archiveUpload.ts');
  return uploadArchive(wharf, target, files, progress);
}
