import os from 'node:os';
import { sql } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.ts';
import { ConfigError } from '../config.ts';
import { isPostgres } from '../db/dialect.ts';
import type { Db } from '../db/schema.ts';

/** How often a node says it is still there, and how long after its last word it counts as gone. */
const SEEN_EVERY_MS = 5_000;
const GONE_AFTER_MS = 30_000;

/** What a node shares with the others, as the nodes table records it. */
function describe(config: Config) {
  const { storage, roles } = config;
  return {
    roles: (['api', 'edge', 'worker'] as const).filter((role) => roles[role]).join(','),
    storage: storage.kind === 's3' ? `s3://${storage.bucket}/${storage.prefix}` : 'folder',
    shares_counters: config.redisUrl ? 1 : 0,
  };
}

/** This node's name: `WHARF_NODE_NAME`, else the machine's name and port (a restart takes over its row). */
export const nodeNameOf = (config: Config) => config.nodeName ?? `${os.hostname()}:${config.port}`;

/**
 * Why nodes with these settings cannot run together, or null when they can. Files kept in each
 * node's own folder are missing on the others; without Redis, each would count sign-in guesses and
 * form submissions alone, multiplying what an attacker may try.
 */
function whyNotTogether(
  mine: ReturnType<typeof describe>,
  others: { name: string; storage: string; shares_counters: number }[],
) {
  if (others.length === 0) return null;
  const names = others.map((other) => other.name).join(', ');
  if (mine.storage === 'folder' || others.some((other) => other.storage === 'folder'))
    return (
      `Other Wharf nodes run on this database (${names}), and files kept in a node's own data directory are missing on the others.\n` +
      "  Give every node the same WHARF_STORAGE=s3://bucket/prefix (README: 'Running several nodes'), or run one node."
    );
  const elsewhere = others.find((other) => other.storage !== mine.storage);
  if (elsewhere)
    return `Node ${elsewhere.name} keeps its files in ${elsewhere.storage}, this one in ${mine.storage}: every node needs the same WHARF_STORAGE.`;
  if (!mine.shares_counters || others.some((other) => !other.shares_counters))
    return (
      `Other Wharf nodes run on this database (${names}): every node needs the same REDIS_URL, so that they count\n` +
      "  sign-in attempts and form submissions together (README: 'Running several nodes')."
    );
  return null;
}

/**
 * The other nodes running on this database: seen lately, and on PostgreSQL holding their life lock
 * (a node killed a moment ago is not running, whatever its row says). SQLite's database is one
 * machine's, where processes sharing it share its data directory too: none counts as another node.
 */
async function othersRunning(db: Db, name: string, time: Date) {
  if (!isPostgres(db)) return [];
  const seen = await db
    .selectFrom('nodes')
    .select(['name', 'started_at', 'storage', 'shares_counters'])
    .where('name', '!=', name)
    .where('seen_at', '>', new Date(time.getTime() - GONE_AFTER_MS).toISOString())
    .execute();
  const alive = await Promise.all(seen.map((row) => isInstanceAlive(db, `${row.name}@${row.started_at}`)));
  return seen.filter((_, index) => alive[index]);
}

/**
 * Adds this node to the nodes table, or refuses to start it (`ConfigError`, saying what to do)
 * when it cannot run beside the nodes already there. Then says every few seconds that it is still
 * there. Answers how to leave.
 */
export async function joinNodes(db: Db, config: Config, schema?: string) {
  const name = nodeNameOf(config);
  const mine = describe(config);
  const time = new Date();
  const row = { name, ...mine, started_at: time.toISOString(), seen_at: time.toISOString() };
  // In first, then look: of two nodes starting at once, each sees the other.
  await db
    .insertInto('nodes')
    .values(row)
    .onConflict((oc) => oc.column('name').doUpdateSet({ ...mine, started_at: row.started_at, seen_at: row.seen_at }))
    .execute();
  const refusal = whyNotTogether(mine, await othersRunning(db, name, time));
  if (refusal) {
    await db.deleteFrom('nodes').where('name', '=', name).execute();
    throw new ConfigError(refusal);
  }
  const instance = `${name}@${row.started_at}`;
  const life = config.databaseUrl ? await holdLifeLock(config.databaseUrl, schema, instance) : null;
  const seen = setInterval(() => {
    void db
      .updateTable('nodes')
      .set({ seen_at: new Date().toISOString() })
      .where('name', '=', name)
      .execute()
      .catch(() => undefined);
  }, SEEN_EVERY_MS);
  seen.unref();
  return {
    name,
    /** This process among the node's lives: what holds a claim (an Idempotency-Key) while it runs. */
    instance,
    async leave() {
      clearInterval(seen);
      await db.deleteFrom('nodes').where('name', '=', name).where('started_at', '=', row.started_at).execute();
      await life?.end().catch(() => undefined);
    },
  };
}

/** The advisory lock a node process holds for as long as it lives (PostgreSQL). */
const lifeLockOf = (instance: string) => sql`hashtext('wharf-node:' || current_schema() || ':' || ${instance})`;

/**
 * Holds the process's life lock on a connection of its own: PostgreSQL lets it go the moment that
 * connection drops, which is the moment the process dies (killed, crashed, its machine gone).
 */
async function holdLifeLock(databaseUrl: string, schema: string | undefined, instance: string) {
  const client = new pg.Client({
    connectionString: databaseUrl,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  client.on('error', () => undefined);
  await client.connect();
  await client.query(`select pg_advisory_lock(hashtext('wharf-node:' || current_schema() || ':' || $1))`, [instance]);
  return client;
}

/**
 * Whether the node process `instance` (see `joinNodes`) still runs. On PostgreSQL, whether its
 * life lock is held: known at once when it dies. On SQLite (one node), whether its row is still
 * its own: a restarted node has a new one.
 */
export async function isInstanceAlive(db: Db, instance: string) {
  if (isPostgres(db)) {
    return db.connection().execute(async (connection) => {
      const { rows } = await sql<{
        free: boolean;
      }>`select pg_try_advisory_lock(${lifeLockOf(instance)}) as free`.execute(connection);
      if (!rows[0]?.free) return true;
      await sql`select pg_advisory_unlock(${lifeLockOf(instance)})`.execute(connection);
      return false;
    });
  }
  const at = instance.lastIndexOf('@');
  const row = await db
    .selectFrom('nodes')
    .select('name')
    .where('name', '=', instance.slice(0, at))
    .where('started_at', '=', instance.slice(at + 1))
    .where('seen_at', '>', new Date(Date.now() - GONE_AFTER_MS).toISOString())
    .executeTakeFirst();
  return row !== undefined;
}
