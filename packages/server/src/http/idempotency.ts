import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ExpressionBuilder } from 'kysely';
import type { Actor } from '../access/actor.ts';
import type { Chore } from '../cluster/housekeeping.ts';
import { isInstanceAlive } from '../cluster/nodes.ts';
import type { Database, Db } from '../db/schema.ts';
import { writeThroughOutage } from '../db/writeThroughOutage.ts';
import { httpError } from './errors.ts';

/** How long an answer is kept for the retries of a request: a CI job retried the next morning still gets it. */
const ANSWER_TTL_MS = 24 * 60 * 60_000;
/** Visible ASCII, as the Idempotency-Key drafts and the usual clients (UUIDs) have it. */
const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;

export interface KeyedWork<T> {
  /** What makes two requests the same request (the body, in effect); a streamed body is read to tell. */
  fingerprint(): Promise<string>;
  /** Does the work once; answers its result and the fingerprint of the request it read. */
  run(): Promise<{ answer: T; fingerprint: string }>;
}

/** Keys are the caller's own: another caller's same key is another request. */
function callerOf(actor: Actor) {
  if (actor.kind === 'siteToken') return `site-token:${actor.tokenId}`;
  if (actor.kind === 'apiToken') return `api-token:${actor.tokenId}`;
  return `user:${actor.userId ?? 'anonymous'}`;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Claims the key for a first request; answers the row of an earlier one when there is one. */
async function claim(db: Db, caller: string, key: string, holder: string, runningTtlMs: number) {
  for (let attempt = 1; ; attempt++) {
    const time = new Date();
    await db
      .deleteFrom('idempotency_keys')
      .where('caller', '=', caller)
      .where('key', '=', key)
      .where('expires_at', '<=', time.toISOString())
      .execute();
    const inserted = await db
      .insertInto('idempotency_keys')
      .values({
        caller,
        key,
        fingerprint: null,
        answer: null,
        held_by: holder,
        created_at: time.toISOString(),
        expires_at: new Date(time.getTime() + runningTtlMs).toISOString(),
      })
      .onConflict((oc) => oc.columns(['caller', 'key']).doNothing())
      .executeTakeFirst();
    if (inserted.numInsertedOrUpdatedRows === 1n) return null;
    const earlier = await db
      .selectFrom('idempotency_keys')
      .select(['fingerprint', 'answer', 'held_by'])
      .where('caller', '=', caller)
      .where('key', '=', key)
      .executeTakeFirst();
    // Gone between the two statements: it expired just now, so it is as good as still running.
    if (!earlier) return { fingerprint: null, answer: null };
    const abandoned =
      earlier.answer === null && earlier.held_by !== null && !(await isInstanceAlive(db, earlier.held_by));
    if (!abandoned || attempt > 1) return earlier;
    // Its process died (killed, or its node restarted) while running it: the retry takes the key over.
    await db
      .deleteFrom('idempotency_keys')
      .where('caller', '=', caller)
      .where('key', '=', key)
      .where('held_by', '=', earlier.held_by!)
      .where('answer', 'is', null)
      .execute();
  }
}

/** A request's `Idempotency-Key`: null without one, refused when it is not one. */
export function idempotencyKeyOf(request: FastifyRequest): string | null {
  const key = request.headers['idempotency-key'];
  if (key === undefined) return null;
  if (typeof key !== 'string' || !KEY_FORMAT.test(key)) {
    throw httpError('IDEMPOTENCY_KEY_INVALID', 'The Idempotency-Key header must be 1 to 255 visible ASCII characters');
  }
  return key;
}

/**
 * Runs a request that creates something at most once per `Idempotency-Key`: a client whose
 * connection died after the server committed sends the same request again with the same key and
 * gets the first answer, not a second release. The same key with another request is refused (422),
 * and so is a retry while the first is still running (409). Only successes are kept: a request
 * that failed changed nothing and may run again. Requests without the header simply run.
 */
export async function withIdempotencyKey<T>(
  db: Db,
  context: {
    request: FastifyRequest;
    reply: FastifyReply;
    actor: Actor;
    runningTtlMs: number;
    /** This node process (`joinNodes`): a retry after it died takes the key over. */
    holder: { instance: string; holdsLifeLock(): boolean };
  },
  work: KeyedWork<T>,
): Promise<T> {
  const { request, reply } = context;
  const key = idempotencyKeyOf(request);
  if (key === null) return (await work.run()).answer;
  const caller = callerOf(context.actor);
  // The route is part of the request: the same key on another route is another request.
  const fingerprintOf = (body: string) => sha256(`${request.method} ${request.url.split('?')[0]}\n${body}`);
  // Without its life lock for now (its connection being made again), this process would look dead
  // to the others, and a retry through another node would take the key over while this one runs.
  if (!context.holder.holdsLifeLock())
    throw httpError('DATABASE_UNAVAILABLE', 'The database connection is being made again; try again in a few seconds');
  const earlier = await claim(db, caller, key, context.holder.instance, context.runningTtlMs);
  if (earlier?.answer === null) {
    throw httpError(
      'IDEMPOTENCY_KEY_IN_USE',
      'A request with this Idempotency-Key is still running; try again shortly',
    );
  }
  if (earlier) {
    if (fingerprintOf(await work.fingerprint()) !== earlier.fingerprint) {
      throw httpError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used for another request; use a new key');
    }
    reply.header('idempotent-replayed', 'true');
    return JSON.parse(earlier.answer) as T;
  }
  // The claim as this process made it: once another took it over, it is no longer this one's to change.
  const ourClaim = (eb: ExpressionBuilder<Database, 'idempotency_keys'>) =>
    eb.and([eb('caller', '=', caller), eb('key', '=', key), eb('held_by', '=', context.holder.instance)]);
  let outcome: { answer: T; fingerprint: string };
  try {
    outcome = await work.run();
  } catch (error) {
    // Let go even when the database fails now (the request's own failure is what the client must
    // hear), and once it is back: a key left claimed would refuse every retry until it expired.
    await writeThroughOutage(
      () => db.deleteFrom('idempotency_keys').where(ourClaim).where('answer', 'is', null).execute(),
      request.log,
      'letting an Idempotency-Key go',
    ).catch((failure) => request.log.error({ err: failure }, 'could not release an Idempotency-Key'));
    throw error;
  }
  // Kept once the database is back when it is away now: the work is done, and its retries must
  // get this answer, never run it a second time.
  await writeThroughOutage(
    () =>
      db
        .updateTable('idempotency_keys')
        .set({
          fingerprint: fingerprintOf(outcome.fingerprint),
          answer: JSON.stringify(outcome.answer),
          expires_at: new Date(Date.now() + ANSWER_TTL_MS).toISOString(),
        })
        .where(ourClaim)
        .execute(),
    request.log,
    'keeping the answer of an Idempotency-Key',
  );
  return outcome.answer;
}

/** Forgets answers no retry will ask for any more. */
export async function sweepExpiredIdempotencyKeys(db: Db, at = new Date()) {
  await db.deleteFrom('idempotency_keys').where('expires_at', '<=', at.toISOString()).execute();
}

/** The housekeeping chore that forgets expired answers. */
export const idempotencyKeysChore = (db: Db): Chore => ({
  name: 'idempotency keys',
  run: ({ at }) => sweepExpiredIdempotencyKeys(db, at),
});
