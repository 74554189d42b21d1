import { describe, expect, it, vi } from 'vitest';
import { compileRedirects } from './compileRedirects.ts';
import { normalRequestPath } from './normalPath.ts';
import { parseRedirects } from './parseRedirects.ts';

function matcherOf(text: string) {
  const { rules, problems } = parseRedirects(text);
  expect(problems.filter((problem) => problem.severity === 'error')).toEqual([]);
  return compileRedirects(rules);
}

/** [request as host/path?query, expected target, status] — or null when nothing matches. */
type Case = [string, string | null, number?];

function check(text: string, cases: Case[], options?: { onlyForced?: boolean }) {
  const matcher = matcherOf(text);
  for (const [request, target, status] of cases) {
    const url = new URL(`http://${request}`);
    const found = matcher.match(url.host, normalRequestPath(url.pathname), url.search, options);
    expect(found?.target ?? null, request).toBe(target);
    if (status !== undefined) expect(found?.status, request).toBe(status);
  }
}

describe('compileRedirects', () => {
  it('redirects static paths with their status, the trailing slash not mattering', () => {
    check('/start /\n/temporary / 302\n/about/ /company 308', [
      ['site.test/start', '/', 301],
      ['site.test/start/', '/', 301],
      ['site.test/temporary', '/', 302],
      ['site.test/about', '/company', 308],
      ['site.test/about/', '/company', 308],
      ['site.test/Start', null],
      ['site.test/starting', null],
    ]);
  });

  it('compares paths in one normal form, however the file and the request encode them', () => {
    check('/caf%C3%A9 /coffee\n/th%C3%A9 /tea\n/menu/:item /carte/:item 302', [
      ['site.test/café', '/coffee'],
      ['site.test/caf%C3%A9', '/coffee'],
      ['site.test/cafe%CC%81', '/coffee'],
      ['site.test/th%c3%a9', '/tea'],
      ['site.test/menu/cr%C3%AApe', '/carte/cr%C3%AApe', 302],
    ]);
  });

  it('captures a splat and places it in the to', () => {
    check('/press/* /newsroom/:splat\n/files* /store/:splat 302', [
      ['site.test/press/2024/hello', '/newsroom/2024/hello'],
      ['site.test/press/', '/newsroom/'],
      ['site.test/press', '/newsroom/'],
      ['site.test/pressroom', null],
      ['site.test/files-2023.zip', '/store/-2023.zip', 302],
    ]);
  });

  it('matches one segment for a placeholder and fills it anywhere in the to', () => {
    check(
      '/articles/:year/:month/:day/:slug /archive/:year-:month-:day/:slug.html\n/:lang/about /about?lang=:lang 302',
      [
        ['site.test/articles/2024/02/29/leap', '/archive/2024-02-29/leap.html'],
        ['site.test/articles/2024/02/29', null],
        ['site.test/articles/2024/02/29/leap/more', null],
        ['site.test/fr/about', '/about?lang=fr', 302],
        ['site.test/fr/de/about', null],
      ],
    );
  });

  it('matches query conditions, captures their values and passes no other query on', () => {
    check('/shop item=:item /catalogue/:item 301\n/list kind=new page=:page /fresh/:page 302\n/shop /store', [
      ['site.test/shop?item=blue-mug', '/catalogue/blue-mug', 301],
      ['site.test/shop?item=a%20b&x=1', '/catalogue/a%20b', 301],
      ['site.test/list?page=3&kind=new', '/fresh/3', 302],
      ['site.test/list?page=3&kind=old', null],
      ['site.test/list?kind=new', null],
      ['site.test/shop?ref=mail', '/store?ref=mail', 301],
      ['site.test/shop', '/store', 301],
    ]);
  });

  it("keeps the request's query on redirects and proxies without a query of their own, not on rewrites", () => {
    check(
      '/a /b\n/c /d?from=c 302\n/e /f#top 307\n/api/* https://api.example.net/:splat 200\n/g /index.html 200\n/h https://example.net/x 301',
      [
        ['site.test/a?x=1', '/b?x=1'],
        ['site.test/c?x=1', '/d?from=c'],
        ['site.test/e?x=1', '/f?x=1#top'],
        ['site.test/api/users?page=2', 'https://api.example.net/users?page=2'],
        ['site.test/g?x=1', '/index.html'],
        ['site.test/h?x=1', 'https://example.net/x?x=1'],
      ],
    );
  });

  it('tells rewrites, proxies and custom not-found pages apart', () => {
    const matcher = matcherOf(
      '/dashboard/* /dashboard/index.html 200\n/journal/* https://journal.example.net/:splat 200\n/handbook/* /handbook/not-found.html 404',
    );
    expect(matcher.match('site.test', '/dashboard/settings', '')).toMatchObject({
      target: '/dashboard/index.html',
      status: 200,
      proxy: false,
    });
    expect(matcher.match('site.test', '/journal/post', '')).toMatchObject({
      target: 'https://journal.example.net/post',
      proxy: true,
    });
    expect(matcher.match('site.test', '/handbook/missing', '')).toMatchObject({
      target: '/handbook/not-found.html',
      status: 404,
      proxy: false,
    });
  });

  it('applies host rules only on their host, whatever its case or port', () => {
    check('https://www.example.com/* https://example.com/:splat 301!\nhttp://old.example.com/about /about-us', [
      ['www.example.com/pricing', 'https://example.com/pricing'],
      ['WWW.Example.com:8080/pricing', 'https://example.com/pricing'],
      ['example.com/pricing', null],
      ['old.example.com/about', '/about-us'],
      ['www.example.com/', 'https://example.com/'],
    ]);
  });

  it('lets the first rule in file order win, static and dynamic rules interleaved', () => {
    const text = [
      '/docs/:page /dynamic-first/:page 302',
      '/docs/intro /static-second',
      '/guide/intro /static-first',
      '/guide/* /dynamic-second/:splat',
      '/:section/intro /opening-placeholder/:section',
      '/blog/intro /static-after-placeholder',
      '/* /spa.html 200',
    ].join('\n');
    check(text, [
      ['site.test/docs/intro', '/dynamic-first/intro'],
      ['site.test/guide/intro', '/static-first'],
      ['site.test/guide/other', '/dynamic-second/other'],
      ['site.test/blog/intro', '/opening-placeholder/blog'],
      ['site.test/anything/else', '/spa.html', 200],
      ['site.test/', '/spa.html', 200],
    ]);
  });

  it('gives host rules and any-host rules their place in file order', () => {
    check('/shared /any-host\nhttps://a.example.com/shared /host-a\nhttps://b.example.com/first /host-b\n/first /any', [
      ['a.example.com/shared', '/any-host'],
      ['b.example.com/first', '/host-b'],
      ['c.example.com/first', '/any'],
    ]);
  });

  it('keeps a dynamic host rule to its host', () => {
    check('https://docs.example.com/v1/* /v2/:splat 307\n/v1/* /legacy/:splat 303', [
      ['docs.example.com/v1/install', '/v2/install', 307],
      ['www.example.com/v1/install', '/legacy/install', 303],
    ]);
  });

  it('with onlyForced, skips unforced rules (a file at the path shadows them)', () => {
    const text = '/page /unforced 302\n/page /forced 302!\n/* /index.html 200';
    check(text, [['site.test/page', '/unforced']]);
    check(
      text,
      [
        ['site.test/page', '/forced'],
        ['site.test/other', null],
      ],
      { onlyForced: true },
    );
  });

  it('reports force and proxy on a forced proxy, for a host rule too', () => {
    const matcher = matcherOf('https://api.example.com/* https://backend.example.net/:splat 200!');
    expect(matcher.match('api.example.com', '/v1/items', 'page=2', { onlyForced: true })).toMatchObject({
      target: 'https://backend.example.net/v1/items?page=2',
      status: 200,
      force: true,
      proxy: true,
    });
    expect(matcher.match('www.example.com', '/v1/items', '', { onlyForced: true })).toBeNull();
  });

  it('runs a few regexes for a request among 2,000 static and 100 dynamic rules, not one per rule', () => {
    const lines = [
      ...Array.from({ length: 100 }, (_, i) => `/section-${i}/:page /moved-${i}/:page`),
      ...Array.from({ length: 2_000 }, (_, i) => `/old/${i} /new/${i}`),
    ];
    const matcher = matcherOf(lines.join('\n'));
    expect(matcher.size).toBe(2_100);
    // Counted rather than timed: a scan would run each dynamic rule's regex, on any machine.
    const regexRuns = vi.spyOn(RegExp.prototype, 'exec');
    try {
      expect(matcher.match('site.test', '/old/1999', '')?.target).toBe('/new/1999');
      expect(matcher.match('site.test', '/section-99/x', '')?.target).toBe('/moved-99/x');
      expect(matcher.match('site.test', '/elsewhere/x', '')).toBeNull();
      expect(regexRuns.mock.calls.length).toBeLessThan(10);
    } finally {
      regexRuns.mockRestore();
    }
  });
});
