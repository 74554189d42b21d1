import { text } from 'node:stream/consumers';
import { invalidField } from '../http/errors.ts';
import type { WharfApp } from '../wharfApp.ts';
import { blobKey } from './blobs.ts';
import type { ReleaseFile } from './createRelease.ts';
import { MAX_RELEASE_CONFIG_BYTES, parseReleaseConfig, RELEASE_CONFIG_FILE } from './releaseConfig.ts';

/** The forms a release declares in its `.wharf.yml`, none when it has no such file. */
export async function formsOfRelease(app: WharfApp, files: ReleaseFile[]) {
  const config = files.find((file) => file.path === RELEASE_CONFIG_FILE);
  if (!config) return [];
  if (config.size > MAX_RELEASE_CONFIG_BYTES)
    throw invalidField(RELEASE_CONFIG_FILE, 'The file is larger than 64 KiB', 'RELEASE_CONFIG_INVALID');
  const stream = await app.blobs.read(blobKey(config.hash));
  if (!stream) throw new Error(`Blob of ${RELEASE_CONFIG_FILE} is missing`);
  return parseReleaseConfig(await text(stream)).forms;
}
