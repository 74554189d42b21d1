import { describe, expect, it } from 'vitest';
import { compileHeaders } from './compileHeaders.ts';
import { parseHeaders } from './parseHeaders.ts';

function matcherOf(text: string) {
  const { blocks, problems } = parseHeaders(text);
  expect(problems).toEqual([]);
  return compileHeaders(blocks);
}

describe('parseHeaders', () => {
  it('reads blocks of indented headers under their pattern, with comments and blank lines', () => {
    const text = [
      '# security for every page',
      '/*',
      '  X-Frame-Options: DENY',
      '  # a comment inside a block',
      '',
      "  Content-Security-Policy: default-src 'self'; img-src https:",
      '/assets/*',
      '\tCache-Control: public, max-age=31536000, immutable',
      '\t! X-Frame-Options',
      'https://Preview.Example.com/*',
      '  X-Robots-Tag: noindex',
    ].join('\n');
    const { blocks, problems } = parseHeaders(text);
    expect(problems).toEqual([]);
    expect(blocks).toEqual([
      {
        line: 2,
        host: null,
        path: '/*',
        set: [
          ['X-Frame-Options', 'DENY'],
          ['Content-Security-Policy', "default-src 'self'; img-src https:"],
        ],
        remove: [],
      },
      {
        line: 7,
        host: null,
        path: '/assets/*',
        set: [['Cache-Control', 'public, max-age=31536000, immutable']],
        remove: ['X-Frame-Options'],
      },
      { line: 10, host: 'preview.example.com', path: '/*', set: [['X-Robots-Tag', 'noindex']], remove: [] },
    ]);
  });

  it.each([
    ['  X-Frame-Options: DENY', 1, /header line before any path/],
    ['/page\n  X-Frame-Options DENY', 2, /has no colon/],
    ['/page\n  X Frame: DENY', 2, /header name "X Frame" is not valid/],
    ['/page\n  X-Frame(1): DENY', 2, /is not valid/],
    ['/page\n  ! Bad Name', 2, /does not name a header/],
    ['/page\n  X-Note: a\u0007b', 2, /holds a control character/],
    ['/a/*/b/*\n  X-A: 1', 1, /more than one splat/],
    ['https://example.com:8443/*\n  X-A: 1', 1, /no port/],
    ['/two /patterns\n  X-A: 1', 1, /holds a space/],
    [`/long\n  X-Long: ${'x'.repeat(2_000)}`, 2, /2,000 characters/],
    ['/page\n  X-Title: 日本', 2, /outside ASCII/],
    ['/page\n  Basic-Auth:', 2, /names no user/],
    ['/page\n  Basic-Auth: nopassword', 2, /user:password pairs/],
    ['/page\n  Basic-Auth: :password', 2, /user:password pairs/],
    [`/page\n  Basic-Auth: ${Array.from({ length: 51 }, (_, i) => `u${i}:p`).join(' ')}`, 2, /limit of 50 users/],
  ])('refuses %j with a reason on its line', (text, line, message) => {
    const { problems } = parseHeaders(text);
    expect(problems).toEqual([{ file: '_headers', line, severity: 'error', message: expect.stringMatching(message) }]);
  });

  it('takes Basic-Auth users out of the headers, and warns about each header Wharf sets itself', () => {
    const { blocks, problems } = parseHeaders(
      '/admin/*\n  Basic-Auth: ann:one bob:two:three\n  Transfer-Encoding: chunked\n  ! Content-Length\n  X-A: 1',
    );
    expect(blocks).toEqual([
      {
        line: 1,
        host: null,
        path: '/admin/*',
        set: [['X-A', '1']],
        remove: [],
        credentials: [
          { user: 'ann', password: 'one' },
          { user: 'bob', password: 'two:three' },
        ],
      },
    ]);
    expect(problems).toEqual([
      { file: '_headers', line: 3, severity: 'warning', message: expect.stringMatching(/ignores Transfer-Encoding/) },
      { file: '_headers', line: 4, severity: 'warning', message: expect.stringMatching(/ignores Content-Length/) },
    ]);
  });

  it('reads a file with Windows line ends', () => {
    const { blocks, problems } = parseHeaders('/a\r\n  X-A: 1\r\n/b\r\n  X-B: 2\r\n');
    expect(problems).toEqual([]);
    expect(blocks.map((block) => [block.line, block.set])).toEqual([
      [1, [['X-A', '1']]],
      [3, [['X-B', '2']]],
    ]);
  });

  it('reports a refused pattern once, not each header line under it', () => {
    const { blocks, problems } = parseHeaders('/a/*/b/*\n  X-A: 1\n  X-B: 2\n/ok\n  X-C: 3');
    expect(problems.map((problem) => problem.line)).toEqual([1]);
    expect(blocks.map((block) => block.path)).toEqual(['/ok']);
  });

  it('keeps 100 blocks and refuses the 101st, naming the limit', () => {
    const text = Array.from({ length: 101 }, (_, i) => `/page-${i}\n  X-Page: ${i}`).join('\n');
    const { blocks, problems } = parseHeaders(text);
    expect(blocks).toHaveLength(100);
    expect(problems).toEqual([
      { file: '_headers', line: 201, severity: 'error', message: expect.stringMatching(/limit of 100 header blocks/) },
    ]);
  });
});

describe('compileHeaders', () => {
  it.each([
    ['/assets/app.js', [['Cache-Control', 'public, max-age=31536000, immutable']]],
    ['/assets/img/logo.svg', [['Cache-Control', 'public, max-age=31536000, immutable']]],
    ['/assets', [['Cache-Control', 'public, max-age=31536000, immutable']]],
    ['/account/settings', [['X-Frame-Options', 'DENY']]],
    ['/account/settings/', [['X-Frame-Options', 'DENY']]],
    ['/account/settings/other', []],
    ['/Account/settings', []],
  ])('matches globs and exact paths: %s', (path, expected) => {
    const matcher = matcherOf(
      '/assets/*\n  Cache-Control: public, max-age=31536000, immutable\n/account/settings\n  X-Frame-Options: DENY',
    );
    expect(matcher.headersFor('site.test', path)).toMatchObject({ set: expected, remove: [] });
  });

  it('fills placeholders and the splat of the pattern in values', () => {
    const matcher = matcherOf(
      '/recipes/:dish\n  X-Dish: Cooking :dish\n/docs/*\n  Link: <https://cdn.example.net/:splat>; rel=preload',
    );
    expect(matcher.headersFor('site.test', '/recipes/ramen')).toMatchObject({
      set: [['X-Dish', 'Cooking ramen']],
      remove: [],
    });
    expect(matcher.headersFor('site.test', '/docs/guide.css').set).toEqual([
      ['Link', '<https://cdn.example.net/guide.css>; rel=preload'],
    ]);
  });

  it('leaves words after a colon alone when the pattern defines no such placeholder', () => {
    const matcher = matcherOf('/*\n  X-Note: time:now and :lang');
    expect(matcher.headersFor('site.test', '/x').set).toEqual([['X-Note', 'time:now and :lang']]);
  });

  it('combines every matching block in file order, joining values of one header with a comma', () => {
    const text = [
      '/*',
      '  Cache-Control: max-age=0',
      '  X-Frame-Options: DENY',
      '/blog/*',
      '  cache-control: no-cache',
      '  Cache-Control: must-revalidate',
      '/blog/:slug',
      '  X-Slug: :slug',
    ].join('\n');
    const matcher = matcherOf(text);
    expect(matcher.headersFor('site.test', '/blog/hello')).toMatchObject({
      set: [
        ['Cache-Control', 'max-age=0, no-cache, must-revalidate'],
        ['X-Frame-Options', 'DENY'],
        ['X-Slug', 'hello'],
      ],
      remove: [],
    });
    expect(matcher.headersFor('site.test', '/about').set).toEqual([
      ['Cache-Control', 'max-age=0'],
      ['X-Frame-Options', 'DENY'],
    ]);
  });

  it('removes a header a broader block set, and lists it for Wharf’s own headers too', () => {
    const matcher = matcherOf(
      '/*\n  X-Robots-Tag: noindex\n  X-Frame-Options: DENY\n/public/*\n  ! x-robots-tag\n  ! Cache-Control',
    );
    expect(matcher.headersFor('site.test', '/public/page')).toMatchObject({
      set: [['X-Frame-Options', 'DENY']],
      remove: ['x-robots-tag', 'Cache-Control'],
    });
    expect(matcher.headersFor('site.test', '/private').set).toEqual([
      ['X-Robots-Tag', 'noindex'],
      ['X-Frame-Options', 'DENY'],
    ]);
  });

  it('sets a header again in a block after the one that removed it', () => {
    const matcher = matcherOf(
      '/*\n  X-Robots-Tag: noindex\n/blog/*\n  ! X-Robots-Tag\n/blog/drafts/*\n  X-Robots-Tag: none',
    );
    expect(matcher.headersFor('site.test', '/blog/drafts/one')).toMatchObject({
      set: [['X-Robots-Tag', 'none']],
      remove: ['X-Robots-Tag'],
    });
  });

  it('applies a block of an absolute URL only on its host', () => {
    const matcher = matcherOf('https://preview.example.com/*\n  X-Robots-Tag: noindex\n/*\n  X-Frame-Options: DENY');
    expect(matcher.headersFor('Preview.Example.com:443', '/a').set).toEqual([
      ['X-Robots-Tag', 'noindex'],
      ['X-Frame-Options', 'DENY'],
    ]);
    expect(matcher.headersFor('www.example.com', '/a').set).toEqual([['X-Frame-Options', 'DENY']]);
  });

  it('answers the same on a repeated request (cached) as on the first, with 100 blocks', () => {
    const blocks = Array.from({ length: 99 }, (_, i) => `/section-${i}/*\n  X-Section: ${i}`);
    const matcher = matcherOf([...blocks, '/:lang/*\n  Content-Language: :lang'].join('\n'));
    const first = matcher.headersFor('site.test', '/section-42/page');
    expect(first.set).toEqual([
      ['X-Section', '42'],
      ['Content-Language', 'section-42'],
    ]);
    expect(matcher.headersFor('site.test', '/section-42/page')).toEqual(first);
    expect(matcher.headersFor('site.test', '/fr/page').set).toEqual([['Content-Language', 'fr']]);
  });
});
