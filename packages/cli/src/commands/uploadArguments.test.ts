import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CliFailure, exitCodes } from '../failures.ts';
import { parseUploadArguments } from './uploadArguments.ts';

const complete = ['./dist', '--url', 'http://localhost:8080', '--site', 'site1', '--token', 'wharf_site_x'];

// No login of this machine's user may give the token a test leaves out.
const withoutLogins = { XDG_CONFIG_HOME: path.join(os.tmpdir(), 'wharf-test-no-logins') };

function usageMessage(args: string[], env: Record<string, string> = withoutLogins) {
  try {
    parseUploadArguments(args, env);
  } catch (error) {
    expect(error).toBeInstanceOf(CliFailure);
    expect((error as CliFailure).exitCode).toBe(exitCodes.usage);
    return (error as CliFailure).message;
  }
  throw new Error('expected a usage error');
}

describe('wharf upload arguments', () => {
  it('reads the folder, server, site and token from the flags', () => {
    expect(parseUploadArguments(complete, {})).toEqual({
      folder: './dist',
      url: new URL('http://localhost:8080'),
      siteId: 'site1',
      token: 'wharf_site_x',
      fromLogin: false,
      release: null,
      branches: [],
      comment: false,
      expires: null,
      force: false,
      draft: false,
      source: {},
      json: false,
    });
    expect(parseUploadArguments([...complete, '--force'], {})).toMatchObject({ force: true });
  });

  it('takes a draft, which goes to no branch and never expires, and the source from the flags', () => {
    expect(parseUploadArguments([...complete, '--draft'], { WHARF_EXPIRES: '12h' })).toMatchObject({
      draft: true,
      expires: null,
    });
    expect(usageMessage([...complete, '--draft', '--branch', 'main'])).toMatch(/--draft goes to no branch/);
    expect(usageMessage([...complete, '--draft', '--expires', '1d'])).toMatch(/--draft has no branches to expire/);
    const sourced = [...complete, '--commit', 'ABCDEF1', '--message', 'Fix it', '--author', 'Ada'];
    expect(parseUploadArguments(sourced, {})).toMatchObject({
      source: { commit: 'ABCDEF1', message: 'Fix it', author: 'Ada' },
    });
    expect(usageMessage([...complete, '--commit', 'main'])).toMatch(/--commit takes a commit SHA/);
  });

  it("takes the branches' expiry from --expires, else WHARF_EXPIRES", () => {
    expect(parseUploadArguments([...complete, '--expires', '14d'], {})).toMatchObject({ expires: '14d' });
    expect(parseUploadArguments(complete, { WHARF_EXPIRES: '12h' })).toMatchObject({ expires: '12h' });
    expect(parseUploadArguments([...complete, '--expires', '30m'], { WHARF_EXPIRES: '12h' })).toMatchObject({
      expires: '30m',
    });
  });

  it('takes WHARF_URL, WHARF_SITE and WHARF_TOKEN when the flags are absent, and lets flags win', () => {
    const env = { WHARF_URL: 'https://wharf.example.com', WHARF_SITE: 'from-env', WHARF_TOKEN: 'secret' };
    expect(parseUploadArguments(['dist'], env)).toMatchObject({
      url: new URL('https://wharf.example.com'),
      siteId: 'from-env',
      token: 'secret',
    });
    expect(parseUploadArguments(['dist', '--site', 'from-flag'], env)).toMatchObject({ siteId: 'from-flag' });
  });

  it('collects every --branch, the release name, --comment and --json', () => {
    const args = [
      ...complete,
      '--branch',
      'main',
      '--branch',
      'feature/login',
      '--release',
      'v1.2',
      '--comment',
      '--json',
    ];
    expect(parseUploadArguments(args, {})).toMatchObject({
      branches: ['main', 'feature/login'],
      release: 'v1.2',
      comment: true,
      json: true,
    });
  });

  it('answers help for --help, whatever else is missing', () => {
    expect(parseUploadArguments(['--help'], {})).toBe('help');
    expect(parseUploadArguments(['-h'], {})).toBe('help');
  });

  it.each([
    [['--url', 'http://x', '--site', 's', '--token', 't'], 'Which folder?'],
    [['a', 'b', '--url', 'http://x', '--site', 's', '--token', 't'], 'takes one folder'],
    [['dist', '--site', 's', '--token', 't'], 'Which server? Give --url or set WHARF_URL'],
    [['dist', '--url', 'http://x', '--token', 't'], 'Which site? Give --site or set WHARF_SITE'],
    [['dist', '--url', 'http://x', '--site', 's'], 'Which token? Give --token or set WHARF_TOKEN'],
    [[...complete, '--url', 'localhost:8080'], '--url must be an http:// or https:// URL'],
    [[...complete, '--url', 'not a url'], '--url must be an http:// or https:// URL'],
    [[...complete, '--branch', ''], '--branch cannot be empty'],
    [[...complete, '--release', ' '], '--release cannot be empty'],
    [[...complete, '--overwrite'], "Unknown option '--overwrite'"],
    [[...complete, '--expires', '14 days'], '--expires must be a duration such as 30m, 12h or 14d; got 14 days'],
    [[...complete, '--expires', '2w'], '--expires must be a duration such as 30m, 12h or 14d; got 2w'],
    [[...complete, '--expires', '400d'], '--expires must be at most 365d; got 400d'],
    [[...complete, '--site'], "Option '--site <value>' argument missing"],
  ])('refuses %j as a usage error', (args, message) => {
    expect(usageMessage(args)).toContain(message);
  });
});
