import { describe, expect, it } from 'vitest';
import { parseRedirects } from './parseRedirects.ts';

describe('parseRedirects', () => {
  it.each([
    ['/start / ', { path: '/start', to: '/', status: 301, force: false, proxy: false, host: null, query: [] }],
    ['/temporary /  302', { to: '/', status: 302 }],
    ['/gone   /gone.html   404', { status: 404, to: '/gone.html' }],
    ['/through /index.html 200', { status: 200, proxy: false }],
    ['/console/*  /console/index.html  200!', { path: '/console/*', status: 200, force: true }],
    ['/old /new 301!', { status: 301, force: true }],
    ['/t /u 303', { status: 303 }],
    ['/t /u 307', { status: 307 }],
    ['/t /u 308', { status: 308 }],
    ['/api/*  https://api.example.net/v1/:splat  200', { proxy: true, to: 'https://api.example.net/v1/:splat' }],
    ['/docs  https://docs.example.net/  301', { proxy: false, status: 301 }],
    ['/shop item=:item /catalogue/:item 301', { query: [['item', ':item']], to: '/catalogue/:item' }],
    [
      '/list kind=new page=:p /fresh/:p 302',
      {
        query: [
          ['kind', 'new'],
          ['page', ':p'],
        ],
      },
    ],
    ['https://WWW.Example.com/* https://example.com/:splat 301!', { host: 'www.example.com', path: '/*', force: true }],
    ['http://blog.example.com /blog', { host: 'blog.example.com', path: '/' }],
    ['/articles/:year/:month/:slug /archive/:year-:month/:slug.html', { path: '/articles/:year/:month/:slug' }],
    ['/a /b 301 # moved in 2024', { to: '/b', status: 301 }],
    ['\t/indented\t\t/tabs\t', { path: '/indented', to: '/tabs' }],
  ])('reads %j', (text, expected) => {
    const { rules, problems } = parseRedirects(text);
    expect(problems).toEqual([]);
    expect(rules).toHaveLength(1);
    expect(rules[0]).toMatchObject({ line: 1, ...expected });
  });

  it('skips comments and blank lines and numbers rules by their line in the file', () => {
    const text = '# moved pages\n\n/a /b\n   \n# more\n/c /d 302\r\n/e /f';
    const { rules, problems } = parseRedirects(text);
    expect(problems).toEqual([]);
    expect(rules.map((rule) => rule.line)).toEqual([3, 6, 7]);
  });

  it.each([
    ['/lonely', /has only a from/],
    ['blog /news', /from blog must start with \/ or http\(s\):\/\//],
    ['ftp://files.example.com/x /y', /must start with \/ or http/],
    ['/a /b 418', /status 418 is not one of 200, 301, 302, 303, 307, 308, 404/],
    ['/a /b 200 extra', /extra is not a status/],
    ['/a ftp://files.example.com/b 200', /to ftp:\/\/files.example.com\/b must be a \/path or an http\(s\):\/\/ URL/],
    ['/a mailto:me@example.com 302', /must be a \/path or an http\(s\):\/\/ URL/],
    ['/a https://elsewhere.example.com/404.html 404', /a 404 rule shows a page of the release/],
    ['/blog/:slug /posts/:id', /to uses :id but its from defines no such placeholder/],
    ['/blog /posts/:splat', /to uses :splat but its from has no \*/],
    ['/a/*/b/* /c', /has more than one splat/],
    ['/:x/:x /y', /uses the placeholder :x twice/],
    ['/store?id=1 /blog', /holds a query/],
    ['/store id /blog', /id is neither a to/],
    ['/store id=:id', /has no to/],
    ['/tarifs /fr/tarifs 302 Country=fr', /Country= conditions are not supported/],
    ['/ /en 302 Language=en', /Language= conditions are not supported/],
    ['/team/* /team/:splat 200! Role=staff', /Role= conditions are not supported/],
    ['/beta /beta-home 302 Cookie=beta', /Cookie= conditions are not supported/],
    ['https://example.com:8443/a /b', /no port, placeholder or splat/],
    ['https://:sub.example.com/a /b', /no port, placeholder or splat/],
  ])('refuses %j with a reason on its line', (line, message) => {
    const { rules, problems } = parseRedirects(`# first line\n${line}\n/kept /rule`);
    expect(problems).toEqual([
      { file: '_redirects', line: 2, severity: 'error', message: expect.stringMatching(message) },
    ]);
    expect(rules.map((rule) => rule.path)).toEqual(['/kept']);
  });

  it('refuses a rule longer than 1,000 characters', () => {
    const long = `/long /${'x'.repeat(1_000)}`;
    const { rules, problems } = parseRedirects(`/a /b\n${long}`);
    expect(rules).toHaveLength(1);
    expect(problems).toEqual([
      expect.objectContaining({ line: 2, severity: 'error', message: expect.stringMatching(/1,000 characters/) }),
    ]);
  });

  it('keeps 2,000 static rules and refuses the 2,001st, naming the limit', () => {
    const lines = Array.from({ length: 2_001 }, (_, i) => `/old/${i} /new/${i}`);
    lines.push('/dynamic/* /still/:splat');
    const { rules, problems } = parseRedirects(lines.join('\n'));
    expect(rules).toHaveLength(2_001);
    expect(rules.at(-1)?.path).toBe('/dynamic/*');
    expect(problems).toEqual([
      {
        file: '_redirects',
        line: 2_001,
        severity: 'error',
        message: expect.stringMatching(/limit of 2,000 static rules/),
      },
    ]);
  });

  it('keeps 100 dynamic rules and refuses the 101st, naming the limit', () => {
    const lines = Array.from({ length: 101 }, (_, i) => `/section-${i}/:page /moved-${i}/:page`);
    lines.push('/static /still-kept');
    const { rules, problems } = parseRedirects(lines.join('\n'));
    expect(rules).toHaveLength(101);
    expect(problems).toEqual([
      {
        file: '_redirects',
        line: 101,
        severity: 'error',
        message: expect.stringMatching(/limit of 100 dynamic rules/),
      },
    ]);
  });
});

describe('parseRedirects warnings', () => {
  const warnings = (text: string) =>
    parseRedirects(text).problems.map((problem) => {
      expect(problem.severity).toBe('warning');
      return [problem.line, problem.message];
    });

  it.each([
    ['a repeated from', '/a /b\n/a/ /c', [[2, 'rule can never match: line 1 has the same from and comes first']]],
    [
      'a repeated from and query',
      '/s id=:id /x/:id\n/s id=:n /y/:n\n/s v=1 /z',
      [[2, expect.stringMatching(/line 1 has the same from/)]],
    ],
    ['a from without conditions before one with', '/s /x\n/s v=1 /z', [[2, expect.stringMatching(/line 1/)]]],
    ['a placeholder renamed', '/p/:a /x/:a\n/p/:b/ /y/:b', [[2, expect.stringMatching(/line 1 has the same from/)]]],
    [
      'a dynamic from covering a later static one',
      '/blog/* /news/:splat\n/blog/2024/hello /hello',
      [[2, 'rule can never match: line 1 (/blog/*) covers it and comes first: write static rules before dynamic ones']],
    ],
    ['a forced catch-all', '/* /index.html 200!\n/a /b', [[2, expect.stringMatching(/line 1 has the catch-all \/\*/)]]],
    [
      'an unforced catch-all before an unforced rule',
      '/* /index.html 200\n/a /b',
      [[2, expect.stringMatching(/line 1/)]],
    ],
    [
      'a catch-all of any host before a host rule',
      '/* /x 301!\nhttps://a.example.com/b /c',
      [[2, expect.stringMatching(/line 1/)]],
    ],
  ])('warns about a rule that can never match: %s', (_, text, expected) => {
    expect(warnings(text)).toEqual(expected);
  });

  it.each([
    ['a forced rule after an unforced one (it applies when a file exists)', '/a /b 200\n/a /c 200!'],
    ['different query conditions', '/s id=:id /x/:id\n/s page=:p /y/:p'],
    ['a catch-all of another host', 'https://a.example.com/* /x 301!\n/b /c'],
    ['a catch-all with a query condition', '/* v=1 /one\n/a /b'],
    ['a redirect chain that ends', '/a /b\n/b /c\n/c /d'],
    ['a static rule before a dynamic one covering it', '/blog/2024/hello /hello\n/blog/* /news/:splat'],
    ['a dynamic rule after a static one of its bucket', '/blog/x /y\n/blog/:slug /z/:slug'],
    ['a static rule before a dynamic one covering it', '/blog/2024/hello /hello\n/blog/* /news/:splat'],
    ['a dynamic rule after a static one of its bucket', '/blog/x /y\n/blog/:slug /z/:slug'],
  ])('does not warn about %s', (_, text) => {
    expect(warnings(text)).toEqual([]);
  });

  it.each([
    ['two rules', '/a /b\n/b /a', [[1, 'redirect loop: /a → /b → /a (lines 1, 2)']]],
    [
      'three rules and a trailing slash',
      '/x /start\n/c/ /a 302\n/a /b\n/b /c',
      [[2, 'redirect loop: /c/ → /a → /b → /c/ (lines 2, 3, 4)']],
    ],
    ['a rule to itself', '/self /self/ 308', [[1, 'rule redirects /self to itself (/self/): ignored when serving']]],
    [
      'a dynamic rule to itself',
      '/p/:id /p/:id/ 301\n/a/* /a/:splat 302\n/b/* /c/:splat',
      [
        [1, 'rule redirects /p/:id to itself (/p/:id/): ignored when serving'],
        [2, 'rule redirects /a/* to itself (/a/:splat): ignored when serving'],
      ],
    ],
    [
      'a host rule to a rule of any host',
      'https://a.example.com/p /q\n/q /p',
      [[1, expect.stringMatching(/redirect loop/)]],
    ],
  ])('warns once about a loop of %s', (_, text, expected) => {
    expect(warnings(text)).toEqual(expected);
  });

  it('sees no loop through rewrites, query-conditioned or dynamic rules', () => {
    expect(warnings('/a /b 200\n/b /a 200')).toEqual([]);
    expect(warnings('/a v=1 /b\n/b /a')).toEqual([]);
    expect(warnings('/a/* /b\n/b /a/x')).toEqual([]);
  });
});
