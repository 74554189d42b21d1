import { text } from 'node:stream/consumers';
import { blobKey } from '../../../releaseFiles/blobKeys.ts';
import type { ReleaseFile } from '../../../releaseFiles/releaseFile.ts';
import type { StoredRules } from '../../../releaseFiles/storedRules.ts';
import {
  parseHeaders,
  parseRedirects,
  type RuleFile,
  type RuleProblem,
  withHashedPasswords,
} from '../../../releaseRules/index.ts';
import type { ReleaseParts } from '../parts.ts';

export interface RulesOfRelease {
  rules: StoredRules;
  problems: RuleProblem[];
}

/** The files a release's rules come from, at its root. */
export const RULE_FILES: RuleFile[] = ['_redirects', '_headers'];

/** 2,000 static and 100 dynamic rules of at most 1,000 characters each fit well within it. */
const MAX_RULES_FILE_BYTES = 4 * 1024 * 1024;

/** A rules file's text; null when the release has none, or (reported) when it is too large to apply. */
async function readRulesFile(parts: ReleaseParts, files: ReleaseFile[], name: RuleFile, problems: RuleProblem[]) {
  const file = files.find((candidate) => candidate.path === name);
  if (!file) return null;
  if (file.size > MAX_RULES_FILE_BYTES) {
    problems.push({
      file: name,
      line: 1,
      message: `${name} is larger than 4 MiB: none of its rules apply`,
      severity: 'error',
    });
    return null;
  }
  const stream = await parts.blobs.read(blobKey(file.hash));
  if (!stream) throw new Error(`Blob of ${name} is missing`);
  return text(stream);
}

/**
 * The `_redirects` and `_headers` at the release's root, parsed with the grammar Netlify and
 * Cloudflare Pages document. A line with an error is left out and reported; the release is stored
 * either way, so that an upload never fails for a typo in a rule.
 */
export async function rulesOfRelease(parts: ReleaseParts, files: ReleaseFile[]): Promise<RulesOfRelease> {
  const problems: RuleProblem[] = [];
  const rules: StoredRules = { redirects: [], headers: [] };
  const redirects = await readRulesFile(parts, files, '_redirects', problems);
  if (redirects !== null) {
    const parsed = parseRedirects(redirects);
    rules.redirects = parsed.rules;
    problems.push(...parsed.problems);
  }
  const headers = await readRulesFile(parts, files, '_headers', problems);
  if (headers !== null) {
    const parsed = parseHeaders(headers);
    rules.headers = await withHashedPasswords(parsed.blocks);
    problems.push(...parsed.problems);
  }
  return { rules, problems };
}
