import { randomBytes, randomInt, scrypt } from 'node:crypto';
import type { Sealer } from '../../lib/secrets.ts';

/*
 * What the migrations need of Wharf's code, as it was when they were written: a migration must do
 * on an old database tomorrow exactly what it did the day it shipped, whatever the live code
 * becomes. Nothing here is imported by anything but a migration.
 */

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

export function randomString(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

/** An id as Wharf makes them: a time prefix (ids sort in creation order), then 12 random characters. */
export function newId(): string {
  return Date.now().toString(36).padStart(9, '0') + randomString(12);
}

/** A mail job's payload: the mail sealed with the installation's secret. */
export function sealedMail(sealer: Sealer, mail: { to: string; subject: string; text: string }) {
  return { sealed: sealer.seal(JSON.stringify(mail)) };
}

/** `scrypt$N$r$p$salt$key` (base64url), with the settings of migration 023's day: N=2^15, r=8, p=1. */
export function hashPassword(password: string): Promise<string> {
  const [cost, blockSize, parallelism] = [2 ** 15, 8, 1];
  const salt = randomBytes(16);
  return new Promise((resolve, reject) =>
    scrypt(password, salt, 32, { N: cost, r: blockSize, p: parallelism, maxmem: 64 * 1024 * 1024 }, (error, key) =>
      error
        ? reject(error)
        : resolve(
            ['scrypt', cost, blockSize, parallelism, salt.toString('base64url'), key.toString('base64url')].join('$'),
          ),
    ),
  );
}
