import type { CliLogin } from '@wharf/contract';
import type { Database, Executor } from '../../db/schema.ts';
import { httpError } from '../../http/errors.ts';

export type CliLoginRow = Database['cli_logins'];

export function toCliLogin(row: CliLoginRow): CliLogin {
  return {
    _id: row.id,
    machine: row.machine,
    code: row.code,
    address: row.address,
    state: row.state,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}

export async function findCliLogin(db: Executor, id: string) {
  const row = await db.selectFrom('cli_logins').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw httpError('CLI_LOGIN_NOT_FOUND', 'This sign-in request does not exist (any more)');
  return row;
}

export const isExpired = (row: CliLoginRow) => row.expires_at <= new Date().toISOString();

/** Moves a request on from the state it was read in; false when another request moved it first. */
export async function moveCliLogin(
  db: Executor,
  id: string,
  from: CliLoginRow['state'],
  to: Partial<Pick<CliLoginRow, 'state' | 'user_id' | 'api_token_id' | 'claim_key_hash'>>,
) {
  const result = await db
    .updateTable('cli_logins')
    .set(to)
    .where('id', '=', id)
    .where('state', '=', from)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}
