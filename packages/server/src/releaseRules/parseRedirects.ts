import { compilePathPattern, isDynamicPath, placeholdersIn, splitAbsolute } from './pathPattern.ts';
import { redirectWarnings } from './redirectWarnings.ts';
import type { RedirectRule, RedirectStatus, RuleProblem } from './types.ts';

/** Cloudflare's limits, which Wharf adopts: a file within them works on both peers. */
export const redirectLimits = { staticRules: 2_000, dynamicRules: 100, lineLength: 1_000 } as const;

const statuses: readonly number[] = [200, 301, 302, 303, 307, 308, 404];
const statusField = /^(\d{3})(!?)$/;
const absoluteUrl = /^https?:\/\//i;
/** Conditions Netlify evaluates against the visitor, which a self-hosted edge cannot honour. */
const visitorConditions = /^(country|language|role|cookie)=/i;

type ParsedLine = { rule: RedirectRule } | { error: string };

/**
 * Reads a `_redirects` file: `from [key=value …] to [status][!] [conditions]`, one rule a line.
 * A line with an error is reported and dropped; the rest still apply.
 */
export function parseRedirects(text: string): { rules: RedirectRule[]; problems: RuleProblem[] } {
  const rules: RedirectRule[] = [];
  const problems: RuleProblem[] = [];
  const error = (line: number, message: string) =>
    problems.push({ file: '_redirects', line, message, severity: 'error' });
  let staticCount = 0;
  let dynamicCount = 0;
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const line = index + 1;
    const content = raw.trim();
    if (content === '' || content.startsWith('#')) continue;
    if (raw.length > redirectLimits.lineLength) {
      error(line, `rule is longer than the limit of ${redirectLimits.lineLength.toLocaleString('en')} characters`);
      continue;
    }
    const parsed = parseRedirectLine(content, line);
    if ('error' in parsed) {
      error(line, parsed.error);
      continue;
    }
    const dynamic = isDynamicPath(parsed.rule.path);
    if (dynamic && dynamicCount >= redirectLimits.dynamicRules) {
      error(
        line,
        `rule goes beyond the limit of ${redirectLimits.dynamicRules} dynamic rules (with * or :placeholders)`,
      );
      continue;
    }
    if (!dynamic && staticCount >= redirectLimits.staticRules) {
      error(line, `rule goes beyond the limit of ${redirectLimits.staticRules.toLocaleString('en')} static rules`);
      continue;
    }
    if (dynamic) dynamicCount++;
    else staticCount++;
    rules.push(parsed.rule);
  }
  problems.push(...redirectWarnings(rules));
  problems.sort((a, b) => a.line - b.line);
  return { rules, problems };
}

function parseRedirectLine(content: string, line: number): ParsedLine {
  const commentAt = content.search(/\s#/);
  const fields = (commentAt === -1 ? content : content.slice(0, commentAt)).split(/\s+/);
  if (fields.length < 2) return { error: 'rule has only a from: it needs a from and a to' };
  const [from = '', ...rest] = fields;
  const source = splitAbsolute(from);
  if (typeof source === 'string') return { error: `from ${from} ${source}` };
  if (source.path.includes('?')) return { error: `from ${from} holds a query: write conditions as key=value fields` };
  const pattern = compilePathPattern(source.path);
  if (typeof pattern === 'string') return { error: `from ${from} ${pattern}` };
  const query = takeQueryConditions(rest);
  if (typeof query === 'string') return { error: query };
  const to = rest.shift();
  if (to === undefined) return { error: 'rule has no to: it needs a /path or an http(s):// URL after its from' };
  const status = takeStatus(rest);
  if (typeof status === 'string') return { error: status };
  const external = absoluteUrl.test(to);
  const queryNames = query.filter(([, value]) => isPlaceholder(value)).map(([, value]) => value.slice(1));
  const problem = targetProblem(to, status.code, [...pattern.names, ...queryNames]);
  if (problem) return { error: problem };
  const proxy = status.code === 200 && external;
  return {
    rule: { line, host: source.host, path: source.path, query, to, status: status.code, force: status.force, proxy },
  };
}

/** Takes the `key=value` fields between the from and the to. */
function takeQueryConditions(fields: string[]): [string, string][] | string {
  const query: [string, string][] = [];
  while (fields.length > 0 && !isTarget(fields[0]!)) {
    const field = fields.shift()!;
    if (visitorConditions.test(field)) return unsupportedCondition(field);
    const equals = field.indexOf('=');
    if (equals <= 0) return `${field} is neither a to (a /path or http(s):// URL) nor a key=value query condition`;
    query.push([field.slice(0, equals), field.slice(equals + 1)]);
  }
  return query;
}

/** Takes the optional status (301 unless written, as Netlify does) and its `!`; nothing may follow. */
function takeStatus(fields: string[]): { code: RedirectStatus; force: boolean } | string {
  let result: { code: RedirectStatus; force: boolean } = { code: 301, force: false };
  const written = fields[0] === undefined ? null : statusField.exec(fields[0]);
  if (written) {
    fields.shift();
    const code = Number(written[1]);
    if (!statuses.includes(code)) return `status ${code} is not one of ${statuses.join(', ')}`;
    result = { code: code as RedirectStatus, force: written[2] === '!' };
  }
  const extra = fields[0];
  if (extra === undefined) return result;
  if (visitorConditions.test(extra)) return unsupportedCondition(extra);
  if (extra.startsWith('#')) return 'a comment must be on a line of its own, starting with #';
  return `${extra} is not a status: expected ${statuses.join(', ')}, with ! to force`;
}

function targetProblem(to: string, status: RedirectStatus, defined: string[]): string | null {
  const external = absoluteUrl.test(to);
  // `//host/…` would be another site's address, read by browsers as relative to the scheme.
  if ((!to.startsWith('/') || /^\/[/\\]/.test(to)) && !external) return `to ${to} must be a /path or an http(s):// URL`;
  if (status === 404 && external) return `a 404 rule shows a page of the release: its to (${to}) must be a path`;
  const missing = placeholdersIn(to).find((name) => !defined.includes(name));
  if (!missing) return null;
  return `to uses :${missing} but ${missing === 'splat' ? 'its from has no *' : 'its from defines no such placeholder'}`;
}

function isTarget(field: string): boolean {
  if (field.startsWith('/') || absoluteUrl.test(field)) return true;
  // A scheme other than http(s) is a to the edge cannot follow: say so rather than call it a condition.
  return /^[a-z][a-z0-9+.-]*:/i.test(field) && !field.includes('=');
}

function isPlaceholder(value: string): boolean {
  return /^:[A-Za-z_]\w*$/.test(value);
}

function unsupportedCondition(field: string): string {
  const name = field.slice(0, field.indexOf('='));
  return `${name}= conditions are not supported by Wharf (they depend on the visitor's country, language, role or cookies): rule dropped`;
}
