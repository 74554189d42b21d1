import { parseArgs } from 'node:util';
import { branchExpiryProblem, COMMIT_PATTERN, type ReleaseSource } from '@wharf/contract/upload';
import { usageError } from '../failures.ts';
import { connectionOf, connectionOptions, type SiteConnection } from './connection.ts';

/** What `wharf upload` was asked to do, before defaults that need git are filled in. */
export interface UploadArguments extends SiteConnection {
  folder: string;
  /** Null: named after the commit, or the time. */
  release: string | null;
  /** Empty: the CI's branch, or git's, or main. */
  branches: string[];
  /** On a pull request, also write the preview's address in a comment, edited at each deploy. */
  comment: boolean;
  /** How long until the branches delete themselves (`14d`); null: they stay. */
  expires: string | null;
  /** Make a release even when the files equal those of the release the branches serve. */
  force: boolean;
  /** A release no branch serves, seen at its own address until it is published. */
  draft: boolean;
  /** What --commit, --message and --author say of the source (the CI's variables and git fill the rest). */
  source: ReleaseSource;
  json: boolean;
}

const options = {
  ...connectionOptions,
  release: { type: 'string' },
  branch: { type: 'string', multiple: true },
  comment: { type: 'boolean', default: false },
  expires: { type: 'string' },
  force: { type: 'boolean', default: false },
  draft: { type: 'boolean', default: false },
  commit: { type: 'string' },
  message: { type: 'string' },
  author: { type: 'string' },
} as const;

function parse(args: string[]) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw usageError((error as Error).message);
  }
}

function notEmpty(values: string[], option: string) {
  if (values.some((value) => !value.trim())) throw usageError(`--${option} cannot be empty`);
  return values;
}

/** The branches' expiry as the server takes it, checked here so that a typo costs no upload. */
function expiryOf(value: string | undefined) {
  if (value === undefined || value === '') return null;
  const expiry = value.trim();
  const problem = branchExpiryProblem(expiry);
  if (problem) throw usageError(`--expires ${problem.toLowerCase()}; got ${value}`);
  return expiry;
}

function draftOf(values: { draft: boolean; branch?: string[]; expires?: string }) {
  if (values.draft && values.branch?.length)
    throw usageError('--draft goes to no branch; publish the release later with wharf publish');
  if (values.draft && values.expires) throw usageError('--draft has no branches to expire');
  return values.draft;
}

function sourceFlags(values: { commit?: string; message?: string; author?: string }): ReleaseSource {
  const commit = values.commit?.trim();
  if (commit !== undefined && !COMMIT_PATTERN.test(commit))
    throw usageError(`--commit takes a commit SHA in hex (7 to 64 characters); got ${values.commit}`);
  return {
    ...(commit ? { commit } : {}),
    ...(values.message?.trim() ? { message: values.message } : {}),
    ...(values.author?.trim() ? { author: values.author } : {}),
  };
}

/**
 * The arguments of `wharf upload`, flags winning over WHARF_URL, WHARF_SITE, WHARF_TOKEN and
 * WHARF_EXPIRES; 'help' for --help.
 */
export function parseUploadArguments(
  args: string[],
  env: Record<string, string | undefined>,
): UploadArguments | 'help' {
  const { values, positionals } = parse(args);
  if (values.help) return 'help';
  if (positionals.length === 0) throw usageError('Which folder? wharf upload <folder>, e.g. wharf upload ./dist');
  if (positionals.length > 1) throw usageError(`wharf upload takes one folder; got ${positionals.join(', ')}`);
  return {
    folder: positionals[0]!,
    ...connectionOf(values, env),
    release: values.release === undefined ? null : notEmpty([values.release], 'release')[0]!,
    branches: notEmpty(values.branch ?? [], 'branch'),
    comment: values.comment,
    // A draft has no branches to expire: WHARF_EXPIRES, meant for previews, does not apply.
    expires: values.draft ? null : expiryOf(values.expires ?? env.WHARF_EXPIRES),
    force: values.force,
    draft: draftOf(values),
    source: sourceFlags(values),
    json: values.json,
  };
}
