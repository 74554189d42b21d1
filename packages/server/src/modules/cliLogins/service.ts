import { timingSafeEqual } from 'node:crypto';
import {
  CLI_LOGIN_TTL_MINUTES,
  CLI_TOKEN_DAYS,
  type CliLogin,
  type CliLoginClaim,
  cliTokenScopes,
  type StartedCliLogin,
} from '@wharf/contract';
import type { Db } from '../../db/schema.ts';
import { httpError } from '../../http/errors.ts';
import { newId, newSecret, randomString } from '../../lib/ids.ts';
import { lookupHash, type Sealer } from '../../lib/secrets.ts';
import { insertApiToken, toApiToken } from '../apiTokens/service.ts';
import { type CliLoginRow, findCliLogin, isExpired, moveCliLogin, toCliLogin } from './queries.ts';

// No vowels (no words), no digits (no 0/O, 1/I): a code a person compares at a glance.
const CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
const DAY_MS = 86_400_000;

const confirmationCode = () => `${randomString(4, CODE_ALPHABET)}-${randomString(4, CODE_ALPHABET)}`;

export async function startCliLogin(
  db: Db,
  input: { machine: string; address: string; consoleUrl: URL },
): Promise<StartedCliLogin> {
  const created = Date.now();
  const secret = newSecret();
  const row: CliLoginRow = {
    id: newId(),
    secret_hash: lookupHash(secret),
    code: confirmationCode(),
    machine: input.machine,
    address: input.address,
    state: 'pending',
    user_id: null,
    api_token_id: null,
    claim_key_hash: null,
    created_at: new Date(created).toISOString(),
    expires_at: new Date(created + CLI_LOGIN_TTL_MINUTES * 60_000).toISOString(),
  };
  // Requests go a day after they expire: until then, a late poll or page still hears "expired".
  await db
    .deleteFrom('cli_logins')
    .where('expires_at', '<', new Date(created - DAY_MS).toISOString())
    .execute();
  await db.insertInto('cli_logins').values(row).execute();
  return {
    _id: row.id,
    url: new URL(`/cli-login/${row.id}`, input.consoleUrl).href,
    code: row.code,
    secret,
    expiresAt: row.expires_at,
  };
}

function mustBePending(row: CliLoginRow) {
  if (row.state !== 'pending') {
    const answer = row.state === 'cancelled' ? 'cancelled' : 'approved';
    throw httpError('CLI_LOGIN_ANSWERED', `This sign-in was ${answer} already`);
  }
  if (isExpired(row)) throw httpError('CLI_LOGIN_EXPIRED', 'This sign-in request has expired: run wharf login again');
}

const answeredMeanwhile = () => httpError('CLI_LOGIN_ANSWERED', 'This sign-in was answered meanwhile');

/** The person's approval: a token of theirs, with the CLI's scopes, waits for the CLI's next poll. */
export async function approveCliLogin(db: Db, sealer: Sealer, row: CliLoginRow, userId: string): Promise<CliLogin> {
  mustBePending(row);
  await db.transaction().execute(async (trx) => {
    const token = await insertApiToken(trx, sealer, userId, {
      name: `CLI on ${row.machine}`,
      activatesAt: new Date().toISOString(),
      expiresAt: new Date(Date.now() + CLI_TOKEN_DAYS * DAY_MS).toISOString(),
      scopes: cliTokenScopes,
    });
    const moved = await moveCliLogin(trx, row.id, 'pending', {
      state: 'approved',
      user_id: userId,
      api_token_id: token._id,
    });
    if (!moved) throw answeredMeanwhile();
  });
  return toCliLogin(await findCliLogin(db, row.id));
}

export async function cancelCliLogin(db: Db, row: CliLoginRow, userId: string): Promise<CliLogin> {
  mustBePending(row);
  if (!(await moveCliLogin(db, row.id, 'pending', { state: 'cancelled', user_id: userId }))) throw answeredMeanwhile();
  return toCliLogin(await findCliLogin(db, row.id));
}

function holdsSecret(row: CliLoginRow, secret: string) {
  return timingSafeEqual(Buffer.from(lookupHash(secret)), Buffer.from(row.secret_hash));
}

/** The token an approval made, to hand to the CLI. */
async function approvedToken(db: Db, sealer: Sealer, row: CliLoginRow): Promise<CliLoginClaim> {
  const token = await db
    .selectFrom('api_tokens')
    .selectAll()
    .where('id', '=', row.api_token_id ?? '')
    .executeTakeFirst();
  if (!token) throw httpError('CLI_LOGIN_CANCELLED', 'The token of this sign-in was deleted in the console');
  return { state: 'approved', token: toApiToken(sealer, token) };
}

/** Whether a poll is a retry of the one that took the token (its Idempotency-Key), while the request lasts. */
const retriesTheClaim = (row: CliLoginRow, claimKey: string | null) =>
  claimKey !== null && row.claim_key_hash === lookupHash(claimKey) && !isExpired(row);

/**
 * The CLI's poll: only with the secret it started with, and the token only once — to the poll that
 * took it, whose answer may be lost on the way: that poll sent again with its Idempotency-Key gets
 * the token again until the request expires; any other poll hears it was handed over.
 */
export async function claimCliLogin(
  db: Db,
  sealer: Sealer,
  row: CliLoginRow,
  /** The poll's Idempotency-Key, read (and refused when malformed) only once the secret is known good. */
  { secret, claimKeyOf }: { secret: string; claimKeyOf: () => string | null },
): Promise<CliLoginClaim> {
  if (!holdsSecret(row, secret))
    throw httpError('CLI_LOGIN_SECRET_WRONG', 'This is not the secret the sign-in was started with');
  const claimKey = claimKeyOf();
  switch (row.state) {
    case 'pending':
      if (isExpired(row)) throw httpError('CLI_LOGIN_EXPIRED', 'Nobody approved the sign-in in time');
      return { state: 'pending', expiresAt: row.expires_at };
    case 'cancelled':
      throw httpError('CLI_LOGIN_CANCELLED', 'The sign-in was cancelled in the console');
    case 'claimed':
      if (retriesTheClaim(row, claimKey)) return approvedToken(db, sealer, row);
      throw httpError('CLI_LOGIN_CLAIMED', 'The token of this sign-in was handed over already');
    case 'approved': {
      const claimed = { state: 'claimed' as const, claim_key_hash: claimKey === null ? null : lookupHash(claimKey) };
      if (!(await moveCliLogin(db, row.id, 'approved', claimed)))
        throw httpError('CLI_LOGIN_CLAIMED', 'The token of this sign-in was handed over already');
      return approvedToken(db, sealer, row);
    }
  }
}
