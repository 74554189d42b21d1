import { randomBytes, randomInt } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** A random string of the given length over [0-9a-z]. */
export function randomString(length: number, alphabet = ALPHABET): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

let lastTime = 0;

/**
 * A new id: a time prefix so ids sort in creation order (events, and lists newest first, rely on
 * it), then 12 random characters so ids cannot be guessed. Ids a process makes in one millisecond
 * would tie on time and sort at random: the time part moves on by one instead, as ULID's
 * monotonic mode does (a burst runs ahead of the clock by its size in milliseconds, no more).
 */
export function newId(): string {
  lastTime = Math.max(Date.now(), lastTime + 1);
  return lastTime.toString(36).padStart(9, '0') + randomString(12);
}

/** A secret to hand out once (session ids, tokens): 32 bytes, URL-safe. */
export function newSecret(prefix = ''): string {
  return prefix + randomBytes(32).toString('base64url');
}

export const now = () => new Date().toISOString();
