import { type Form, forms } from '@wharf/contract';
import { isMap, LineCounter, parseDocument } from 'yaml';
import { z } from 'zod';
import { httpError } from '../http/errors.ts';

export const RELEASE_CONFIG_FILE = '.wharf.yml';
export const MAX_RELEASE_CONFIG_BYTES = 64 * 1024;

const releaseConfig = z.object({ forms: forms.optional() }, { error: 'Must be a mapping with the key forms' });

function refuse(line: number | null, problem: string) {
  const where = line ? `${RELEASE_CONFIG_FILE} line ${line}` : RELEASE_CONFIG_FILE;
  const message = `${where}: ${problem}`;
  return httpError('RELEASE_CONFIG_INVALID', message, [{ field: RELEASE_CONFIG_FILE, message }]);
}

/**
 * Reads the release config of an uploaded folder. Forms follow the contract's rules; a bad file
 * fails the upload with the line and the problem, so the author can fix it.
 */
export function parseReleaseConfig(text: string): { forms: Form[] } {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false });
  const syntax = document.errors[0];
  if (syntax) throw refuse(lineCounter.linePos(syntax.pos[0]).line, syntax.message.split('\n')[0] ?? 'Invalid YAML');
  if (document.contents !== null && !isMap(document.contents)) throw refuse(1, 'Must be a mapping with the key forms');
  const result = releaseConfig.safeParse(document.toJS() ?? {});
  if (result.success) return { forms: result.data.forms ?? [] };
  const issue = result.error.issues[0]!;
  const node = document.getIn(issue.path, true) as { range?: [number, number, number] } | undefined;
  const parentNode = document.getIn(issue.path.slice(0, -1), true) as { range?: [number, number, number] } | undefined;
  const offset = node?.range?.[0] ?? parentNode?.range?.[0];
  const line = offset === undefined ? null : lineCounter.linePos(offset).line;
  const field = issue.path.join('.');
  throw refuse(line, field ? `${field}: ${issue.message}` : issue.message);
}
