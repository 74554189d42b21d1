import { hash } from 'node:crypto';
import type pg from 'pg';

/**
 * Statements PostgreSQL prepares once on each connection and from then on only runs: those the
 * API runs for nearly every request, whose shape never changes (db/reusableQuery.ts). Parsed and
 * planned anew each time, a site's lookup took 208 µs a round trip, and 144 µs prepared
 * (bench/README, "Prepared once on each connection").
 */
const names = new Map<string, string>();

export function prepareOnEachConnection(sql: string) {
  if (!names.has(sql)) names.set(sql, `wharf_${hash('sha256', sql, 'base64url').slice(0, 24)}`);
}

/**
 * A preparation the connection no longer holds as it was made: dropped (`DEALLOCATE`, `DISCARD
 * ALL`, a pooler that moved the session to another connection) or made before a table it reads
 * changed shape (a migration run by a newer node while this one serves).
 */
function isStale(error: unknown) {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  return code === '26000' || (code === '0A000' && /cached plan/.test(message ?? ''));
}

/** How many times each connection's preparations went stale: a new name prepares them anew. */
const staleTimes = new WeakMap<pg.ClientBase, number>();

/** Runs `text` on the client: by its name when it is prepared on each connection, prepared again once when stale. */
export async function runStatement(client: pg.ClientBase, text: string, values: unknown[]) {
  const name = names.get(text);
  if (!name) return client.query(text, values);
  const named = () => ({ name: `${name}_${staleTimes.get(client) ?? 0}`, text, values });
  try {
    return await client.query(named());
  } catch (error) {
    if (!isStale(error)) throw error;
    staleTimes.set(client, (staleTimes.get(client) ?? 0) + 1);
    return client.query(named());
  }
}
