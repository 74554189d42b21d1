import { createHash } from 'node:crypto';
import { hashPassword } from '@wharf/contract/passwords';
import type { BasicAuthGuard, BasicAuthUser, HeaderBlock, ParsedHeaderBlock } from './types.ts';

/** The blocks as stored: each `Basic-Auth` password replaced by its hash, so that no rule keeps one in clear. */
export async function withHashedPasswords(blocks: readonly ParsedHeaderBlock[]): Promise<HeaderBlock[]> {
  return Promise.all(
    blocks.map(async ({ credentials, ...block }) => {
      if (!credentials) return block;
      const basicAuth = await Promise.all(
        credentials.map(async ({ user, password }) => ({ user, hash: await hashPassword(password) })),
      );
      return { ...block, basicAuth };
    }),
  );
}

/**
 * The users of every block protecting a path, together: any of them may see it. Its version is a
 * digest of their hashes (salted, so new at each upload): the password gate remembers verified
 * credentials and counts guesses under it.
 */
export function guardOf(users: readonly BasicAuthUser[]): BasicAuthGuard | null {
  if (users.length === 0) return null;
  const byName = new Map<string, string>();
  // The first block naming a user decides that user's password, as the first matching rule wins.
  for (const { user, hash } of users) if (!byName.has(user)) byName.set(user, hash);
  const digest = createHash('sha256');
  for (const { user, hash } of users) digest.update(`${user}\n${hash}\n`);
  return { version: `basic-auth:${digest.digest('base64url')}`, users: byName };
}
