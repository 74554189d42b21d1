import { compilePathPattern, type PathPattern } from './pathPattern.ts';
import type { RedirectRule, RuleProblem } from './types.ts';

interface Seen {
  rule: RedirectRule;
  pattern: PathPattern;
  /** The from with placeholder names erased: `/a/:x` and `/a/:y` answer the same paths. */
  shape: string;
}

/**
 * Rules that can never match because an earlier one answers every request they would: a repeated
 * from, a catch-all, or a dynamic from covering a later static one.
 */
export function unreachableRules(rules: readonly RedirectRule[]): RuleProblem[] {
  const problems: RuleProblem[] = [];
  // Only catch-alls, rules of the same shape and (for a static from) dynamic rules can hide a rule.
  const byShape = new Map<string, Seen[]>();
  const dynamic: Seen[] = [];
  const catchAlls: Seen[] = [];
  for (const rule of rules) {
    const pattern = compilePathPattern(rule.path);
    if (typeof pattern === 'string') continue;
    const seen: Seen = { rule, pattern, shape: shapeOf(pattern.normal) };
    const candidates = [...catchAlls, ...(byShape.get(seen.shape) ?? []), ...(pattern.regex ? [] : dynamic)];
    const earlier = candidates
      .filter((candidate) => hides(candidate, seen))
      .sort((a, b) => a.rule.line - b.rule.line)[0];
    if (earlier) problems.push(warning(rule.line, `rule can never match: ${reason(earlier, seen)}`));
    if (pattern.normal === '/*') catchAlls.push(seen);
    else byShape.set(seen.shape, [...(byShape.get(seen.shape) ?? []), seen]);
    if (pattern.regex) dynamic.push(seen);
  }
  return problems;
}

function shapeOf(normal: string): string {
  return normal.replace(/\/:[A-Za-z_]\w*(?=\/|$)/g, '/:');
}

/**
 * An earlier rule hides a later one when it answers every request the later one would: same host
 * (or any host), a from covering the later from, no query condition the later lacks, and a forcing
 * at least as strong (an unforced earlier rule stands aside when a file exists; a forced later one
 * then still applies).
 */
function hides(earlier: Seen, later: Seen): boolean {
  const { rule } = earlier;
  if (rule.host !== null && rule.host !== later.rule.host) return false;
  if (!rule.force && later.rule.force) return false;
  if (rule.query.length > 0 && !sameConditions(rule.query, later.rule.query)) return false;
  if (earlier.pattern.normal === '/*') return true;
  if (earlier.shape === later.shape) return true;
  return !later.pattern.regex && earlier.pattern.regex !== null && earlier.pattern.regex.test(later.pattern.normal);
}

function sameConditions(a: [string, string][], b: [string, string][]): boolean {
  // `id=:id` and `id=:n` both ask for any id.
  const key = (query: [string, string][]) =>
    JSON.stringify(query.map(([name, value]) => [name, value.startsWith(':') ? ':' : value]).sort());
  return a.length === b.length && key(a) === key(b);
}

function reason(earlier: Seen, later: Seen): string {
  const { line, path } = earlier.rule;
  if (earlier.pattern.normal === '/*') return `line ${line} has the catch-all ${path} and comes first`;
  if (earlier.shape === later.shape) return `line ${line} has the same from and comes first`;
  return `line ${line} (${path}) covers it and comes first: write static rules before dynamic ones`;
}

function warning(line: number, message: string): RuleProblem {
  return { file: '_redirects', line, message, severity: 'warning' };
}
