import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { BuildStepFailed } from './stepFailed.ts';

/**
 * Opens a file the build wrote without following a link: a build could leave `index.html`
 * pointing at any file of the host, which must never become part of a release.
 */
export async function openPlainFile(file: string) {
  const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  const stats = await handle.stat();
  if (!stats.isFile()) {
    await handle.close();
    throw new BuildStepFailed(`${file} is not a plain file`);
  }
  return handle;
}
