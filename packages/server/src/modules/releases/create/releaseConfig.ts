import { type Form, form, type RuleProblem, releaseConfig } from '@wharf/contract';
import { type Document, isMap, isScalar, LineCounter, parseDocument } from 'yaml';
import type { z } from 'zod';

import { RELEASE_CONFIG_FILE } from '../../../releaseFiles/configFile.ts';

export const configProblem = (line: number, message: string): RuleProblem => ({
  file: RELEASE_CONFIG_FILE,
  line,
  message,
  severity: 'error',
});

/** The line of the YAML node at a path, else of its nearest parent that has one. */
function lineOf(document: Document, lineCounter: LineCounter, path: PropertyKey[]) {
  for (let depth = path.length; depth >= 0; depth--) {
    const node = document.getIn(path.slice(0, depth), true) as { range?: [number, number, number] } | undefined;
    if (node?.range) return lineCounter.linePos(node.range[0]).line;
  }
  return 1;
}

/** The line of a key of the mapping at a path. */
function keyLineOf(document: Document, lineCounter: LineCounter, path: PropertyKey[], key: string) {
  const map = document.getIn(path, true);
  const pair = isMap(map) ? map.items.find((item) => isScalar(item.key) && item.key.value === key) : undefined;
  const offset = isScalar(pair?.key) ? pair.key.range?.[0] : undefined;
  return offset === undefined ? lineOf(document, lineCounter, path) : lineCounter.linePos(offset).line;
}

function problemOf(document: Document, lineCounter: LineCounter, issue: z.core.$ZodIssue) {
  const path = issue.path;
  const field = path.map(String).join('.');
  const line =
    issue.code === 'unrecognized_keys'
      ? keyLineOf(document, lineCounter, path, issue.keys[0]!)
      : lineOf(document, lineCounter, path);
  return configProblem(line, `${field ? `${field}: ` : ''}${issue.message}`);
}

/** The index of the form an issue is about, if it is about one form (`forms.2.name`). */
const formIndexOf = (issue: z.core.$ZodIssue) =>
  issue.path[0] === 'forms' && typeof issue.path[1] === 'number' ? issue.path[1] : undefined;

/**
 * Reads the `.wharf.yml` of an uploaded folder with the contract's schema (the one its JSON Schema
 * is made from). As with `_redirects`, a mistake never fails the upload: each is reported with its
 * line, and a form in error is left out while the others apply; an error outside the forms (bad
 * YAML, an unknown key) leaves the whole file out.
 */
export function parseReleaseConfig(text: string): { forms: Form[]; problems: RuleProblem[] } {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false });
  const syntax = document.errors[0];
  if (syntax) {
    const line = lineCounter.linePos(syntax.pos[0]).line;
    return { forms: [], problems: [configProblem(line, syntax.message.split('\n')[0] ?? 'Invalid YAML')] };
  }
  if (document.contents !== null && !isMap(document.contents))
    return { forms: [], problems: [configProblem(1, 'Must be a mapping with the key forms')] };
  const config = (document.toJS() ?? {}) as { forms?: unknown };
  // `forms:` with nothing after it is YAML's null: no forms, as an author means it.
  if (config.forms === null) delete config.forms;
  const result = releaseConfig.safeParse(config);
  if (result.success) return { forms: result.data.forms ?? [], problems: [] };
  const issues = result.error.issues;
  const problems = issues.map((issue) => problemOf(document, lineCounter, issue));
  if (issues.some((issue) => formIndexOf(issue) === undefined)) return { forms: [], problems };
  const refused = new Set(issues.map(formIndexOf));
  const entries = config.forms as unknown[];
  const forms = entries.filter((_, index) => !refused.has(index)).map((entry) => form.parse(entry));
  return { forms, problems };
}
