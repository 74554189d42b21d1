import { text } from 'node:stream/consumers';
import type { Form, RuleProblem } from '@wharf/contract';
import type { Executor } from '../../../db/schema.ts';
import { blobKey } from '../../../releaseFiles/blobKeys.ts';
import { MAX_RELEASE_CONFIG_BYTES, RELEASE_CONFIG_FILE } from '../../../releaseFiles/configFile.ts';
import type { ReleaseFile } from '../../../releaseFiles/releaseFile.ts';
import type { ReleaseParts } from '../parts.ts';
import { formsInHtml } from './formsInHtml.ts';
import { configProblem, parseReleaseConfig } from './releaseConfig.ts';

/** What an upload brings to its site's forms, and what was wrong with them. */
export interface FormsOfRelease {
  /** Declared in its `.wharf.yml`. */
  declared: Form[];
  /** Found in its HTML pages. */
  detected: Form[];
  problems: RuleProblem[];
}

/** Pages larger than this are not read for forms: no hand-written page is. */
const MAX_HTML_BYTES = 5 * 1024 * 1024;
const HTML_READS_AT_ONCE = 8;
const isPage = (path: string) => /\.html?$/i.test(path);

async function readBlob(parts: ReleaseParts, file: ReleaseFile) {
  const stream = await parts.blobs.read(blobKey(file.hash));
  if (!stream) throw new Error(`Blob of ${file.path} is missing`);
  return text(stream);
}

async function declaredForms(parts: ReleaseParts, files: ReleaseFile[]) {
  const config = files.find((file) => file.path === RELEASE_CONFIG_FILE);
  if (!config) return { forms: [], problems: [] };
  if (config.size > MAX_RELEASE_CONFIG_BYTES)
    return { forms: [], problems: [configProblem(1, 'The file is larger than 64 KiB: none of it applies')] };
  return parseReleaseConfig(await readBlob(parts, config));
}

type PageForms = ReturnType<typeof formsInHtml>;

/**
 * What each page held, by its content's hash: a redeploy brings back nearly every page of the last
 * one, and reading a thousand stored pages again at each finalise cost more than the rest of it.
 * Bounded: the oldest are forgotten first. A problem names the page it was found in; the same
 * content at another path is reported there.
 */
const formsByPage = new Map<string, PageForms>();
const PAGES_REMEMBERED = 50_000;

async function formsOfPage(parts: ReleaseParts, file: ReleaseFile): Promise<PageForms> {
  const known = formsByPage.get(file.hash);
  if (known)
    return { forms: known.forms, problems: known.problems.map((problem) => ({ ...problem, file: file.path })) };
  const found = formsInHtml(await readBlob(parts, file), file.path);
  if (formsByPage.size >= PAGES_REMEMBERED) formsByPage.delete(formsByPage.keys().next().value!);
  formsByPage.set(file.hash, found);
  return found;
}

/** The forms marked in the release's pages, each name once (the first page that has it says how). */
async function detectedForms(parts: ReleaseParts, pages: ReleaseFile[]) {
  const found = new Map<string, Form>();
  const problems: RuleProblem[] = [];
  const read = pages.filter((file) => isPage(file.path) && file.size <= MAX_HTML_BYTES);
  // Read a few at a time; kept in the pages' order, so that the same upload always finds the same.
  const results: PageForms[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: HTML_READS_AT_ONCE }, async () => {
      for (let index = next++; index < read.length; index = next++) {
        const file = read[index]!;
        results[index] = await formsOfPage(parts, file);
      }
    }),
  );
  for (const result of results) {
    for (const form of result.forms) if (!found.has(form.name.toLowerCase())) found.set(form.name.toLowerCase(), form);
    problems.push(...result.problems);
  }
  return { forms: [...found.values()], problems };
}

/**
 * The forms a release declares in its `.wharf.yml` and those its HTML pages mark for collection
 * (`pages`: the release's HTML files, or all its files). Problems are reported, never fatal.
 */
export async function formsOfRelease(
  parts: ReleaseParts,
  configFiles: ReleaseFile[],
  pages: ReleaseFile[],
): Promise<FormsOfRelease> {
  const declared = await declaredForms(parts, configFiles);
  const detected = await detectedForms(parts, pages);
  return { declared: declared.forms, detected: detected.forms, problems: [...declared.problems, ...detected.problems] };
}

/** The HTML pages of a deploy, whose forms an incremental deploy's finalise looks for. */
export async function pagesOfDeploy(db: Executor, deployId: string): Promise<ReleaseFile[]> {
  const rows = await db
    .selectFrom('deploy_files')
    .select(['path', 'hash', 'size'])
    .where('deploy_id', '=', deployId)
    .where((eb) =>
      eb.or([eb(eb.fn('lower', ['path']), 'like', '%.html'), eb(eb.fn('lower', ['path']), 'like', '%.htm')]),
    )
    .orderBy('path')
    .execute();
  return rows.map((row) => ({ ...row, size: Number(row.size) }));
}
