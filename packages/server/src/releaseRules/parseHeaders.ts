import { patterns, reservedHeaderReason } from '@wharf/contract';
import { compilePathPattern, splitAbsolute } from './pathPattern.ts';
import type { ParsedHeaderBlock, RuleProblem } from './types.ts';

/**
 * Cloudflare's limits, which Wharf adopts: a file within them works on both peers. Each
 * `Basic-Auth` user costs a slow hash at upload, hence a limit of its own.
 */
export const headerLimits = { blocks: 100, lineLength: 2_000, basicAuthUsers: 50 } as const;

type LineProblem = Pick<RuleProblem, 'message' | 'severity'>;

/** RFC 7230's token: the characters a header name may hold. */
const headerName = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const patternStart = /^(\/|https?:\/\/)/i;

/**
 * Reads a `_headers` file: a line starting with / or http(s):// opens a block for that pattern;
 * the (indented) `Name: value` and `! Name` lines after it belong to that block.
 */
export function parseHeaders(text: string): { blocks: ParsedHeaderBlock[]; problems: RuleProblem[] } {
  const blocks: ParsedHeaderBlock[] = [];
  const problems: RuleProblem[] = [];
  const error = (line: number, message: string) =>
    problems.push({ file: '_headers', line, message, severity: 'error' });
  /** The block header lines go to; null before the first pattern or under a refused one. */
  let current: ParsedHeaderBlock | null = null;
  let refused = false;
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const line = index + 1;
    const content = raw.trim();
    if (content === '' || content.startsWith('#')) continue;
    if (raw.length > headerLimits.lineLength) {
      error(line, `line is longer than the limit of ${headerLimits.lineLength.toLocaleString('en')} characters`);
      continue;
    }
    if (patternStart.test(content)) {
      current = null;
      refused = true;
      if (blocks.length >= headerLimits.blocks) {
        error(line, `block goes beyond the limit of ${headerLimits.blocks} header blocks: block dropped`);
        continue;
      }
      const opened = openBlock(content, line);
      if (typeof opened === 'string') {
        error(line, opened);
        continue;
      }
      current = opened;
      refused = false;
      blocks.push(opened);
      continue;
    }
    if (!current) {
      // Lines under a refused pattern already have their error; a header before any pattern needs one.
      if (!refused) error(line, 'header line before any path: start a block with a /path or https:// URL line');
      continue;
    }
    const users = blocks.reduce((sum, block) => sum + (block.credentials?.length ?? 0), 0);
    const problem = addHeaderLine(current, content, users);
    if (problem) problems.push({ file: '_headers', line, ...problem });
  }
  return { blocks, problems };
}

function openBlock(content: string, line: number): ParsedHeaderBlock | string {
  if (/\s/.test(content)) return `path ${content} holds a space: one pattern a line, its headers indented below`;
  const source = splitAbsolute(content);
  if (typeof source === 'string') return `path ${content} ${source}`;
  const pattern = compilePathPattern(source.path);
  if (typeof pattern === 'string') return `path ${content} ${pattern}`;
  return { line, host: source.host, path: source.path, set: [], remove: [] };
}

const lineError = (message: string): LineProblem => ({ message, severity: 'error' });

/** Adds a `Name: value` or `! Name` line to the block, or says why it does not. */
function addHeaderLine(block: ParsedHeaderBlock, content: string, usersSoFar: number): LineProblem | null {
  if (content.startsWith('!')) {
    const name = content.slice(1).trim();
    if (!headerName.test(name))
      return lineError(`! ${name} does not name a header (a name is letters, digits and !#$%&'*+-.^_\`|~)`);
    const reserved = reservedHeaderReason(name);
    if (reserved) return ignored(name, reserved);
    block.remove.push(name);
    return null;
  }
  const colon = content.indexOf(':');
  if (colon === -1) return lineError(`${content} has no colon: a header line is Name: value`);
  const name = content.slice(0, colon).trim();
  const value = content.slice(colon + 1).trim();
  if (!headerName.test(name)) {
    return lineError(
      `header name "${name}" is not valid (a name is letters, digits and !#$%&'*+-.^_\`|~, without spaces)`,
    );
  }
  if (hasControlCharacter(value)) return lineError(`the value of ${name} holds a control character`);
  if (!patterns.headerValue.test(value))
    return lineError(`the value of ${name} holds a character outside ASCII: percent-encode it`);
  if (name.toLowerCase() === 'basic-auth') return addCredentials(block, value, usersSoFar);
  const reserved = reservedHeaderReason(name);
  if (reserved) return ignored(name, reserved);
  block.set.push([name, value]);
  return null;
}

function ignored(name: string, reason: string): LineProblem {
  return { message: `Wharf ignores ${name} in _headers: it ${reason}`, severity: 'warning' };
}

/**
 * `Basic-Auth: user:password user2:password2`, as Netlify documents it: the block's paths answer
 * 401 until one of the pairs is given. Never sent as a header.
 */
function addCredentials(block: ParsedHeaderBlock, value: string, usersSoFar: number): LineProblem | null {
  const pairs = value.split(/\s+/).filter(Boolean);
  if (pairs.length === 0) return lineError('Basic-Auth names no user: write Basic-Auth: user:password');
  const credentials: { user: string; password: string }[] = [];
  for (const pair of pairs) {
    const colon = pair.indexOf(':');
    if (colon <= 0 || colon === pair.length - 1)
      return lineError('Basic-Auth takes user:password pairs separated by spaces, each with a user and a password');
    credentials.push({ user: pair.slice(0, colon), password: pair.slice(colon + 1) });
  }
  if (usersSoFar + credentials.length > headerLimits.basicAuthUsers)
    return lineError(`Basic-Auth goes beyond the limit of ${headerLimits.basicAuthUsers} users in a file`);
  block.credentials = [...(block.credentials ?? []), ...credentials];
  return null;
}

/** Control characters other than the tab have no place in a header value. */
function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09) || code === 0x7f) return true;
  }
  return false;
}
