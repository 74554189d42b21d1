import { parseArgs } from 'node:util';
import { usageError } from '../failures.ts';

/** What `wharf upload` was asked to do, before defaults that need git are filled in. */
export interface UploadArguments {
  folder: string;
  url: URL;
  siteId: string;
  token: string;
  /** Null: named after the commit, or the time. */
  release: string | null;
  /** Empty: the CI's branch, or git's, or main. */
  branches: string[];
  json: boolean;
}

const options = {
  url: { type: 'string' },
  site: { type: 'string' },
  token: { type: 'string' },
  release: { type: 'string' },
  branch: { type: 'string', multiple: true },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

function parse(args: string[]) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw usageError((error as Error).message);
  }
}

function serverUrl(value: string | undefined): URL {
  if (!value) throw usageError('Which server? Give --url or set WHARF_URL, e.g. --url http://localhost:8080');
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {}
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') {
    throw usageError(`--url must be an http:// or https:// URL, e.g. http://localhost:8080; got ${value}`);
  }
  return url;
}

function notEmpty(values: string[], option: string) {
  if (values.some((value) => !value.trim())) throw usageError(`--${option} cannot be empty`);
  return values;
}

/** The arguments of `wharf upload`, flags winning over WHARF_URL, WHARF_SITE and WHARF_TOKEN; 'help' for --help. */
export function parseUploadArguments(
  args: string[],
  env: Record<string, string | undefined>,
): UploadArguments | 'help' {
  const { values, positionals } = parse(args);
  if (values.help) return 'help';
  if (positionals.length === 0) throw usageError('Which folder? wharf upload <folder>, e.g. wharf upload ./dist');
  if (positionals.length > 1) throw usageError(`wharf upload takes one folder; got ${positionals.join(', ')}`);
  const url = serverUrl(values.url ?? env.WHARF_URL);
  const siteId = values.site ?? env.WHARF_SITE;
  if (!siteId) throw usageError("Which site? Give --site or set WHARF_SITE to the site's id");
  const token = values.token ?? env.WHARF_TOKEN;
  if (!token) {
    throw usageError('Which token? Give --token or set WHARF_TOKEN: a site token, or an API token with release_create');
  }
  return {
    folder: positionals[0]!,
    url,
    siteId,
    token,
    release: values.release === undefined ? null : notEmpty([values.release], 'release')[0]!,
    branches: notEmpty(values.branch ?? [], 'branch'),
    json: values.json,
  };
}
