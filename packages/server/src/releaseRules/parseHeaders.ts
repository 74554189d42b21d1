import { compilePathPattern, splitAbsolute } from './pathPattern.ts';
import type { HeaderBlock, RuleProblem } from './types.ts';

/** Cloudflare's limits, which Wharf adopts: a file within them works on both peers. */
export const headerLimits = { blocks: 100, lineLength: 2_000 } as const;

/** RFC 7230's token: the characters a header name may hold. */
const headerName = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const patternStart = /^(\/|https?:\/\/)/i;

/**
 * Reads a `_headers` file: a line starting with / or http(s):// opens a block for that pattern;
 * the (indented) `Name: value` and `! Name` lines after it belong to that block.
 */
export function parseHeaders(text: string): { blocks: HeaderBlock[]; problems: RuleProblem[] } {
  const blocks: HeaderBlock[] = [];
  const problems: RuleProblem[] = [];
  const error = (line: number, message: string) =>
    problems.push({ file: '_headers', line, message, severity: 'error' });
  /** The block header lines go to; null before the first pattern or under a refused one. */
  let current: HeaderBlock | null = null;
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
    const problem = addHeaderLine(current, content);
    if (problem) error(line, problem);
  }
  return { blocks, problems };
}

function openBlock(content: string, line: number): HeaderBlock | string {
  if (/\s/.test(content)) return `path ${content} holds a space: one pattern a line, its headers indented below`;
  const source = splitAbsolute(content);
  if (typeof source === 'string') return `path ${content} ${source}`;
  const pattern = compilePathPattern(source.path);
  if (typeof pattern === 'string') return `path ${content} ${pattern}`;
  return { line, host: source.host, path: source.path, set: [], remove: [] };
}

/** Adds a `Name: value` or `! Name` line to the block, or says why it cannot. */
function addHeaderLine(block: HeaderBlock, content: string): string | null {
  if (content.startsWith('!')) {
    const name = content.slice(1).trim();
    if (!headerName.test(name))
      return `! ${name} does not name a header (a name is letters, digits and !#$%&'*+-.^_\`|~)`;
    block.remove.push(name);
    return null;
  }
  const colon = content.indexOf(':');
  if (colon === -1) return `${content} has no colon: a header line is Name: value`;
  const name = content.slice(0, colon).trim();
  const value = content.slice(colon + 1).trim();
  if (!headerName.test(name)) {
    return `header name "${name}" is not valid (a name is letters, digits and !#$%&'*+-.^_\`|~, without spaces)`;
  }
  if (hasControlCharacter(value)) return `the value of ${name} holds a control character`;
  block.set.push([name, value]);
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
