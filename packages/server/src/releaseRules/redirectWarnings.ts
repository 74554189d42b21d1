import { normalRulePath } from './normalPath.ts';
import { isDynamicPath, normalisePath } from './pathPattern.ts';
import type { RedirectRule, RuleProblem } from './types.ts';
import { unreachableRules } from './unreachableRules.ts';

/** Rules that can never match, and loops between static redirects: worth a warning, not a refusal. */
export function redirectWarnings(rules: readonly RedirectRule[]): RuleProblem[] {
  return [...unreachableRules(rules), ...redirectLoops(rules), ...dynamicSelfRedirects(rules)];
}

/**
 * Dynamic redirects whose to is their own from (`/a/* /a/:splat`, `/p/:id /p/:id/`): every
 * request they match would be sent back to itself. Static ones are found with the loops below.
 */
function dynamicSelfRedirects(rules: readonly RedirectRule[]): RuleProblem[] {
  const shape = (path: string) => normalisePath(normalRulePath(path));
  return rules
    .filter((rule) => rule.status >= 301 && rule.status <= 308 && rule.query.length === 0 && isDynamicPath(rule.path))
    .filter((rule) => !/[?#]/.test(rule.to) && shape(rule.to.replace(':splat', '*')) === shape(rule.path))
    .map((rule) => warning(rule.line, `rule redirects ${rule.path} to itself (${rule.to}): ignored when serving`));
}

function warning(line: number, message: string): RuleProblem {
  return { file: '_redirects', line, message, severity: 'warning' };
}

/**
 * Static redirects (3xx, no placeholder, no query condition) whose to lands on another such rule.
 * A rule of any host and a host's own rule may chain, so loops are sought once for requests to
 * hosts without rules of their own and once for each host the file names.
 */
function redirectLoops(rules: readonly RedirectRule[]): RuleProblem[] {
  const nodes = new Map<string, RedirectRule>();
  const key = (host: string | null, path: string) => `${host ?? '*'} ${normalisePath(normalRulePath(path))}`;
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
  if (found.length === 1) {
    const [rule] = found as [RedirectRule];
    return warning(rule.line, `rule redirects ${rule.path} to itself (${rule.to}): ignored when serving`);
  }
  // Told from the rule written first, so the same loop always reads the same way.
  const first = found.reduce((best, rule, i) => (rule.line < found[best]!.line ? i : best), 0);
  const cycle = [...found.slice(first), ...found.slice(0, first)];
  const paths = [...cycle.map((rule) => rule.path), cycle[0]!.path].join(' → ');
  const lines = cycle.map((rule) => rule.line);
  return warning(cycle[0]!.line, `redirect loop: ${paths} (lines ${lines.join(', ')})`);
}
