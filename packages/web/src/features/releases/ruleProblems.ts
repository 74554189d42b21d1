import type { RuleProblem } from '@wharf/contract';
import { countOf } from '../../lib/plural.ts';

const FILE_ORDER: RuleProblem['file'][] = ['.wharf.yml', '_redirects', '_headers'];

/** The problems as a reader goes through the files: `_redirects` first, then by line. */
export const inFileOrder = (problems: RuleProblem[]) =>
  problems.toSorted((a, b) => FILE_ORDER.indexOf(a.file) - FILE_ORDER.indexOf(b.file) || a.line - b.line);

/** '2 errors', '1 warning', '1 error · 3 warnings', and red where a line was refused, else yellow. */
export function problemsSummary(problems: RuleProblem[]): { text: string; color: 'red' | 'yellow' } {
  const errors = problems.filter((problem) => problem.severity === 'error').length;
  const warnings = problems.length - errors;
  const parts = [errors && countOf(errors, 'error'), warnings && countOf(warnings, 'warning')].filter(Boolean);
  return { text: parts.join(' · '), color: errors ? 'red' : 'yellow' };
}
