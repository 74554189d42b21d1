import { isDynamicPath, normalisePath } from './pathPattern.ts';
import type { RedirectRule, RuleProblem } from './types.ts';

/** Rules that can never match, and loops between static redirects: worth a warning, not a refusal. */
export function redirectWarnings(rules: readonly RedirectRule[]): RuleProblem[] {
  return [...unreachableRules(rules), ...redirectLoops(rules)];
}

function warning(line: number, message: string): RuleProblem {
  return { file: '_redirects', line, message, severity: 'warning' };
}

/**
 * An earlier rule hides a later one when it answers every request the later one would: same host
 * (or any host), a from covering the later from, no query condition the later lacks, and a forcing
 * at least as strong (an unforced earlier rule stands aside when a file exists; a forced later one
 * then still applies).
 */
function hides(earlier: RedirectRule, later: RedirectRule): boolean {
  if (earlier.host !== null && earlier.host !== later.host) return false;
  if (!earlier.force && later.force) return false;
  const earlierPath = normalisePath(earlier.path);
  if (earlierPath === '/*') return earlier.query.length === 0;
  return earlierPath === normalisePath(later.path) && sameConditions(earlier.query, later.query);
}

function sameConditions(a: [string, string][], b: [string, string][]): boolean {
  const key = (query: [string, string][]) => JSON.stringify([...query].sort());
  return a.length === b.length && key(a) === key(b);
}

function unreachableRules(rules: readonly RedirectRule[]): RuleProblem[] {
  const problems: RuleProblem[] = [];
  // Only catch-alls and rules sharing a from can hide another, so group by from before comparing.
  const byPath = new Map<string, RedirectRule[]>();
  const catchAlls: RedirectRule[] = [];
  for (const rule of rules) {
    const path = normalisePath(rule.path);
    const earlier = [...catchAlls, ...(byPath.get(path) ?? [])].find((candidate) => hides(candidate, rule));
    if (earlier) {
      const what = normalisePath(earlier.path) === '/*' ? `the catch-all ${earlier.path}` : `the same from`;
      problems.push(warning(rule.line, `can never match: line ${earlier.line} has ${what} and comes first`));
    }
    if (path === '/*') catchAlls.push(rule);
    else byPath.set(path, [...(byPath.get(path) ?? []), rule]);
  }
  return problems;
}

/**
 * Static redirects (3xx, no placeholder, no query condition) whose to lands on another such rule.
 * A rule of any host and a host's own rule may chain, so loops are sought once for requests to
 * hosts without rules of their own and once for each host the file names.
 */
function redirectLoops(rules: readonly RedirectRule[]): RuleProblem[] {
  const nodes = new Map<string, RedirectRule>();
  const key = (host: string | null, path: string) => `${host ?? '*'} ${normalisePath(path)}`;
  for (const rule of rules) {
    const isRedirect = rule.status >= 301 && rule.status <= 308;
    if (!isRedirect || rule.query.length > 0 || isDynamicPath(rule.path) || !rule.to.startsWith('/')) continue;
    const node = key(rule.host, rule.path);
    if (!nodes.has(node)) nodes.set(node, rule);
  }
  const problems: RuleProblem[] = [];
  const reported = new Set<string>();
  const hosts = new Set([null, ...[...nodes.values()].map((rule) => rule.host)]);
  for (const host of hosts) {
    /** The rule a request for this path on this host meets first. */
    const ruleFor = (path: string) => {
      const own = host === null ? undefined : nodes.get(key(host, path));
      const anyHost = nodes.get(key(null, path));
      if (own && anyHost) return own.line < anyHost.line ? own : anyHost;
      return own ?? anyHost;
    };
    const done = new Set<RedirectRule>();
    for (const start of nodes.values()) {
      if (start.host !== null && start.host !== host) continue;
      const walk: RedirectRule[] = [];
      let current: RedirectRule | undefined = start;
      while (current && !done.has(current) && !walk.includes(current)) {
        walk.push(current);
        current = ruleFor(current.to.split(/[?#]/)[0]!);
      }
      const cycleStart = current ? walk.indexOf(current) : -1;
      for (const rule of walk) done.add(rule);
      if (cycleStart === -1) continue;
      const cycle = walk.slice(cycleStart);
      const signature = cycle
        .map((rule) => rule.line)
        .sort((a, b) => a - b)
        .join();
      if (!reported.has(signature)) problems.push(loopWarning(cycle));
      reported.add(signature);
    }
  }
  return problems;
}

function loopWarning(found: RedirectRule[]): RuleProblem {
  // Told from the rule written first, so the same loop always reads the same way.
  const first = found.reduce((best, rule, i) => (rule.line < found[best]!.line ? i : best), 0);
  const cycle = [...found.slice(first), ...found.slice(0, first)];
  const paths = [...cycle.map((rule) => rule.path), cycle[0]!.path].join(' → ');
  const lines = cycle.map((rule) => rule.line);
  return warning(cycle[0]!.line, `redirect loop: ${paths} (lines ${lines.join(', ')})`);
}
