import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseHeaders, parseRedirects } from './index.ts';

const readme = readFileSync(new URL('../../../../README.md', import.meta.url), 'utf8');

/** The lines of the README's code block that starts with this comment line. */
function example(firstLine: string) {
  const after = readme.split(`${firstLine}\n`)[1];
  if (after === undefined) throw new Error(`README.md has no example starting with ${firstLine}`);
  return after.split('\n```')[0]!;
}

describe('the README’s examples of _redirects and _headers', () => {
  it('parse without a problem, every line a rule', () => {
    const redirects = parseRedirects(example('# _redirects: from  to  [status][!]'));
    expect(redirects.problems).toEqual([]);
    expect(redirects.rules).toHaveLength(9);
    const headers = parseHeaders(example('# _headers: a path pattern, its headers indented below'));
    expect(headers.problems).toEqual([]);
    expect(headers.blocks.map((block) => block.path)).toEqual(['/*', '/assets/*', '/embed/*', '/admin/*']);
  });
});
