import type { WharfApi } from '../api/wharfApi.ts';
import type { FolderFile } from '../folder/hashFiles.ts';
import type { Progress } from '../output/progress.ts';
import { uploadArchive } from './archiveUpload.ts';
import { deployIncrementally } from './incrementalDeploy.ts';
import type { ReleaseTarget, UploadOutcome } from './outcome.ts';

/** Deploys the files incrementally, or as one archive to a server that cannot. */
export async function deployFiles(
  wharf: WharfApi,
  target: ReleaseTarget,
  files: FolderFile[],
  progress: Progress,
): Promise<UploadOutcome> {
  const deployed = await deployIncrementally(wharf, target, files, progress);
  if (deployed) return deployed;
  progress.note('This server has no incremental deploys: sending the whole folder as a tar.gz');
  return uploadArchive(wharf, target, files, progress);
}
