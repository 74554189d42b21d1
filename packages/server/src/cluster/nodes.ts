import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from '../config/types.ts';
import { ConfigError } from '../config/types.ts';
import type { ConnectionLog } from '../db/dedicatedConnection.ts';
import { isPostgres } from '../db/dialect.ts';
import type { Db } from '../db/schema.ts';
import { holdLifeLock, isLifeLockHeld, LIFE_LOCK_RETAKEN_WITHIN_MS } from './lifeLock.ts';

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

/** Says that this node is still there; a failure (the database away) waits for the next time. */
function sayStillHere(db: Db, name: string) {
  return db
    .updateTable('nodes')
    .set({ seen_at: new Date().toISOString() })
    .where('name', '=', name)
    .execute()
    .catch(() => undefined);
}

/**
 * Adds this node to the nodes table, or refuses to start it (`ConfigError`, saying what to do)
 * when it cannot run beside the nodes already there. Then says every few seconds that it is still
 * there. Answers how to leave.
 */
export async function joinNodes(db: Db, config: Config, parts: { schema?: string; log: ConnectionLog }) {
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
  // Back after a long outage, the node is seen at once, not at its next word: a node starting
  // then must find it.
  const life = config.databaseUrl
    ? await holdLifeLock({ databaseUrl: config.databaseUrl, schema: parts.schema }, instance, {
        log: parts.log,
        onRetaken: () => void sayStillHere(db, name),
      })
    : null;
  const seen = setInterval(() => void sayStillHere(db, name), SEEN_EVERY_MS);
  seen.unref();
  return {
    name,
    /** This process among the node's lives: what holds a claim (an Idempotency-Key) while it runs. */
    instance,
    /**
     * Whether the other processes can tell this one is alive (on PostgreSQL, its life lock is
     * held): while not, it takes no claim they would take for abandoned.
     */
    holdsLifeLock: () => life?.up ?? true,
    async leave() {
      clearInterval(seen);
      // Stopping while the database is away: the row stays, and its free lock says the process is gone.
      await db
        .deleteFrom('nodes')
        .where('name', '=', name)
        .where('started_at', '=', row.started_at)
        .execute()
        .catch(() => undefined);
      await life?.close();
    },
  };
}

/** Whether the node process `instance` still has its row (seen since `seenSince`, when given). */
async function hasItsRow(db: Db, instance: string, seenSince?: Date) {
  const at = instance.lastIndexOf('@');
  let query = db
    .selectFrom('nodes')
    .select('name')
    .where('name', '=', instance.slice(0, at))
    .where('started_at', '=', instance.slice(at + 1));
  if (seenSince) query = query.where('seen_at', '>', seenSince.toISOString());
  return (await query.executeTakeFirst()) !== undefined;
}

/**
 * Whether the node process `instance` (see `joinNodes`) still runs. On PostgreSQL, whether its
 * life lock is held: known at once when it dies and its node starts again or leaves (its row is
 * then another's, or gone), within a few seconds when it died alone. On SQLite (one node),
 * whether its row is still its own and seen lately: a restarted node has a new one.
 */
export async function isInstanceAlive(db: Db, instance: string) {
  if (!isPostgres(db)) return hasItsRow(db, instance, new Date(Date.now() - GONE_AFTER_MS));
  if (await isLifeLockHeld(db, instance)) return true;
  if (!(await hasItsRow(db, instance))) return false;
  // Dead, or alive with its connection dropped a moment ago (a database restart): asked again
  // once a live one has taken its lock back.
  await sleep(LIFE_LOCK_RETAKEN_WITHIN_MS);
  return isLifeLockHeld(db, instance);
}
