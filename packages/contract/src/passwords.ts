import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

// N=2^15 makes a guess cost ~50 ms: slow for an attacker, fine for a sign-in.
const COST = 2 ** 15;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const KEY_LENGTH = 32;
const MAX_MEMORY = 64 * 1024 * 1024;

function derive(password: string, salt: Buffer, cost: number, blockSize: number, parallelism: number) {
  return new Promise<Buffer>((resolve, reject) => {
    scrypt(password, salt, KEY_LENGTH, { N: cost, r: blockSize, p: parallelism, maxmem: MAX_MEMORY }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/**
 * `scrypt$N$r$p$salt$key`, salt and key in base64url. The hash carries its cost, and checking a
 * password uses the cost it carries: `cost` lower than the default only where the hash guards
 * nothing (the test users' shared password), never for a password a person chose.
 */
export async function hashPassword(password: string, cost = COST): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost, BLOCK_SIZE, PARALLELISM);
  return ['scrypt', cost, BLOCK_SIZE, PARALLELISM, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  const [kind, cost, blockSize, parallelism, salt, key] = hash.split('$');
  if (kind !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await derive(
    password,
    Buffer.from(salt, 'base64url'),
    Number(cost),
    Number(blockSize),
    Number(parallelism),
  );
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * A hash no password matches (its key is all zeros), made with today's settings: checking a
 * password against it costs what checking against a real one does.
 */
const NOBODY = ['scrypt', COST, BLOCK_SIZE, PARALLELISM, 'A'.repeat(22), 'A'.repeat(43)].join('$');

/**
 * Checks a password against the hash of a user who may not exist: without a hash it does the same
 * work against a hash nobody has, so the answer's time does not tell whether the name exists.
 */
export async function verifyPasswordOfAnyone(password: string, hash: string | undefined): Promise<boolean> {
  const matches = await verifyPassword(password, hash ?? NOBODY);
  return hash !== undefined && matches;
}

/** Compares two strings in a time that depends on neither (their digests have one length). */
export function equalInConstantTime(a: string, b: string) {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(a), digest(b));
}
