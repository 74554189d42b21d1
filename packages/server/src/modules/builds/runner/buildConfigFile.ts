import path from 'node:path';
import { type BuildConfig, buildConfig } from '@wharf/contract';
import { parseDocument } from 'yaml';
import { RELEASE_CONFIG_FILE } from '../../../releaseFiles/configFile.ts';
import { openPlainFile } from './plainFiles.ts';
import { BuildStepFailed } from './stepFailed.ts';

const MAX_BYTES = 64 * 1024;

/**
 * The `build` section of the `.wharf.yml` in the base directory, or null when there is none. A
 * file that cannot be read as YAML, or a section the schema refuses, fails the build with the
 * reason: building with settings the commit did not mean would publish the wrong thing.
 */
export async function buildConfigIn(base: string): Promise<BuildConfig | null> {
  const file = path.join(base, RELEASE_CONFIG_FILE);
  const handle = await openPlainFile(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw new BuildStepFailed(`${RELEASE_CONFIG_FILE} could not be read: it must be a plain file`);
  });
  if (!handle) return null;
  let text: string;
  try {
    if ((await handle.stat()).size > MAX_BYTES)
      throw new BuildStepFailed(`${RELEASE_CONFIG_FILE} is larger than ${MAX_BYTES / 1024} KB`);
    text = await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
  const document = parseDocument(text);
  if (document.errors.length > 0)
    throw new BuildStepFailed(
      `${RELEASE_CONFIG_FILE} is not valid YAML: ${document.errors[0]!.message.split('\n')[0]}`,
    );
  const section = (document.toJS() as { build?: unknown } | null)?.build;
  if (section === undefined) return null;
  const parsed = buildConfig.safeParse(section);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new BuildStepFailed(`${RELEASE_CONFIG_FILE}: ${['build', ...issue.path].join('.')}: ${issue.message}`);
  }
  return parsed.data;
}
