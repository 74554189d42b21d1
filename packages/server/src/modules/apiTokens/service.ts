import { type ApiToken, isScope } from '@wharf/contract';
import { API_TOKEN_PREFIX } from '../../access/actor.ts';
import type { Database, Db, Executor } from '../../db/schema.ts';
import { recordEvent } from '../../events/outbox.ts';
import { httpError, invalidField } from '../../http/errors.ts';
import { newId, newSecret, now } from '../../lib/ids.ts';
import { readJson } from '../../lib/json.ts';
import { lookupHash, type Sealer } from '../../lib/secrets.ts';

type TokenRow = Database['api_tokens'];

export function toApiToken(sealer: Sealer, row: TokenRow): ApiToken {
  return {
    _id: row.id,
    name: row.name,
    value: sealer.open(row.value_sealed),
    createdAt: row.created_at,
    activatesAt: row.activates_at,
    expiresAt: row.expires_at,
    scopes: readJson<string[]>(row.scopes),
  };
}

export interface TokenSettings {
  name: string;
  activatesAt: string;
  expiresAt: string | null;
  scopes: string[];
}

/** Scopes must be ones some route needs, and a token must expire after it activates. */
function checkSettings(settings: TokenSettings, activationField: string) {
  settings.scopes.forEach((scope, index) => {
    if (!isScope(scope)) {
      throw invalidField(`scopes.${index}`, `Unknown scope ${scope}`);
    }
  });
  if (settings.expiresAt && Date.parse(settings.expiresAt) <= Date.parse(settings.activatesAt)) {
    throw invalidField('expiresAt', `Must be after ${activationField}`);
  }
}

const normalise = (settings: TokenSettings) => ({
  name: settings.name,
  activates_at: new Date(settings.activatesAt).toISOString(),
  expires_at: settings.expiresAt ? new Date(settings.expiresAt).toISOString() : null,
  scopes: JSON.stringify([...new Set(settings.scopes)]),
});

export async function findOwnToken(db: Db, userId: string, tokenId: string) {
  const row = await db
    .selectFrom('api_tokens')
    .selectAll()
    .where('id', '=', tokenId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw httpError('API_TOKEN_NOT_FOUND', 'API token not found');
  return row;
}

/** Makes a token of the user and records its event, in the caller's transaction. */
export async function insertApiToken(trx: Executor, sealer: Sealer, userId: string, settings: TokenSettings) {
  checkSettings(settings, 'activesAt');
  const value = newSecret(API_TOKEN_PREFIX);
  const row: TokenRow = {
    id: newId(),
    user_id: userId,
    value_sealed: sealer.seal(value),
    value_hash: lookupHash(value),
    created_at: now(),
    ...normalise(settings),
  };
  await trx.insertInto('api_tokens').values(row).execute();
  await recordEvent(trx, {
    name: 'user_api_token_created',
    actorId: userId,
    userId,
    data: { tokenId: row.id, name: row.name },
  });
  return toApiToken(sealer, row);
}

export function createApiToken(db: Db, sealer: Sealer, userId: string, settings: TokenSettings) {
  return db.transaction().execute((trx) => insertApiToken(trx, sealer, userId, settings));
}

export async function updateApiToken(db: Db, sealer: Sealer, userId: string, tokenId: string, settings: TokenSettings) {
  checkSettings(settings, 'activatesAt');
  await findOwnToken(db, userId, tokenId);
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('api_tokens').set(normalise(settings)).where('id', '=', tokenId).execute();
    await recordEvent(trx, {
      name: 'user_api_token_updated',
      actorId: userId,
      userId,
      data: { tokenId, name: settings.name },
    });
  });
  return toApiToken(sealer, await findOwnToken(db, userId, tokenId));
}

export async function deleteApiToken(db: Db, userId: string, tokenId: string) {
  const token = await findOwnToken(db, userId, tokenId);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('api_tokens').where('id', '=', tokenId).execute();
    await recordEvent(trx, {
      name: 'user_api_token_deleted',
      actorId: userId,
      userId,
      data: { tokenId, name: token.name },
    });
  });
}
