import { createHmac, timingSafeEqual } from 'node:crypto';
import { ConfigError } from '../config/types.ts';
import type { Db } from '../db/schema.ts';
import { now } from './ids.ts';

const CHECK_NAME = 'secret_check';

/** A value only the secret makes; it tells whether two secrets are the same, and nothing of either. */
const checkValueOf = (secret: string) =>
  createHmac('sha256', secret).update('wharf installation secret').digest('base64url');

/** A short name of the installation, the same on every node (its secret is): keeps its keys apart in a shared Redis. */
export const installationTag = (secret: string) => checkValueOf(secret).slice(0, 16);

/**
 * Refuses to start with a secret other than the one the database's sealed values (token values,
 * mail settings, certificates' keys) were made with: a second node given its own secret, or a
 * database restored beside another installation's data directory. The first start records the
 * check value; every later start compares. Two first starts at once agree on whichever wrote first.
 */
export async function mustMatchInstallationSecret(db: Db, secret: string) {
  const mine = checkValueOf(secret);
  await db
    .insertInto('installation')
    .values({ name: CHECK_NAME, value: mine, created_at: now() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const recorded = await db
    .selectFrom('installation')
    .select('value')
    .where('name', '=', CHECK_NAME)
    .executeTakeFirstOrThrow();
  const same = recorded.value.length === mine.length && timingSafeEqual(Buffer.from(recorded.value), Buffer.from(mine));
  if (!same) {
    throw new ConfigError(
      'This database was sealed with another secret than this process has.\n' +
        '  Every Wharf node of an installation needs the same WHARF_SECRET: set it to the first\n' +
        "  node's (its value is in that node's data directory, in the file named secret, unless\n" +
        '  WHARF_SECRET was set there), or give this node an empty database of its own.',
    );
  }
}
