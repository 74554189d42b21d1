import type { RuleProblem } from '@wharf/contract';
import { countOf } from '../../lib/plural.ts';

const FILE_ORDER: RuleProblem['file'][] = ['.wharf.yml', '_redirects', '_headers'];

/** Where a file's problems come: the release's configuration first, then its pages (by path). */
const placeOf = (file: string) => (FILE_ORDER.includes(file) ? FILE_ORDER.indexOf(file) : FILE_ORDER.length);

/** The problems as a reader goes through the files: `.wharf.yml`, `_redirects`, `_headers`, then pages, each by line. */
export const inFileOrder = (problems: RuleProblem[]) =>
  problems.toSorted((a, b) => placeOf(a.file) - placeOf(b.file) || a.file.localeCompare(b.file) || a.line - b.line);

/** '2 errors', '1 warning', '1 error · 3 warnings', and red where a line was refused, else yellow. */
export function problemsSummary(problems: RuleProblem[]): { text: string; color: 'red' | 'yellow' } {
  const errors = problems.filter((problem) => problem.severity === 'error').length;
  const warnings = problems.length - errors;
  const parts = [errors && countOf(errors, 'error'), warnings && countOf(warnings, 'warning')].filter(Boolean);
  return { text: parts.join(' · '), color: errors ? 'red' : 'yellow' };
}
