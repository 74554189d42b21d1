import type { Database, Db } from '../../db/schema.ts';
import type { CertificatePlan } from './hostPlan.ts';

export type CertificateRow = Database['tls_certificates'];

/** How long a process may take to order a certificate before another may try. */
const LEASE_MS = 2 * 60_000;
/** The first retry after a failed order, growing fourfold with each failure, up to a day. */
const FIRST_RETRY_MS = 5 * 60_000;
const LONGEST_RETRY_MS = 24 * 60 * 60_000;

export type Claim = 'claimed' | 'busy' | 'later';

/** The rows of these names that hold a certificate (a wildcard's row serves the hosts under it). */
export function servableRows(db: Db, names: string[]): Promise<CertificateRow[]> {
  return db
    .selectFrom('tls_certificates')
    .selectAll()
    .where('name', 'in', names)
    .where('chain', 'is not', null)
    .execute();
}

/** Every certificate obtained (a renewal replaces its name's), with when it expires. */
export async function issuedCertificates(db: Db): Promise<{ name: string; notAfter: Date }[]> {
  const rows = await db
    .selectFrom('tls_certificates')
    .select(['name', 'not_after'])
    .where('chain', 'is not', null)
    .where('not_after', 'is not', null)
    .execute();
  return rows.map((row) => ({ name: row.name, notAfter: new Date(row.not_after!) }));
}

export function rowNamed(db: Db, name: string): Promise<CertificateRow | undefined> {
  return db.selectFrom('tls_certificates').selectAll().where('name', '=', name).executeTakeFirst();
}

/**
 * Takes the right to order `plan.name` now: a name never ordered, or one without a certificate
 * (or due for renewal, `renewBefore`) whose last failure has waited its time and that no other
 * process is ordering. 'busy' when another process is on it; 'later' when it must wait.
 */
export async function claimOrder(db: Db, plan: CertificatePlan, renewBefore: Date, now = new Date()): Promise<Claim> {
  const time = now.toISOString();
  const lease = new Date(now.getTime() + LEASE_MS).toISOString();
  const inserted = await db
    .insertInto('tls_certificates')
    .values({
      name: plan.name,
      site_id: plan.siteId,
      state: 'pending',
      attempts: 0,
      lease_until: lease,
      created_at: time,
      updated_at: time,
    })
    .onConflict((c) => c.column('name').doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return 'claimed';
  const updated = await db
    .updateTable('tls_certificates')
    .set({ lease_until: lease })
    .where('name', '=', plan.name)
    .where((w) => w.or([w('lease_until', 'is', null), w('lease_until', '<', time)]))
    .where((w) => w.or([w('retry_at', 'is', null), w('retry_at', '<=', time)]))
    .where((w) => w.or([w('chain', 'is', null), w('not_after', '<', renewBefore.toISOString())]))
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 1) return 'claimed';
  const row = await rowNamed(db, plan.name);
  return row?.lease_until && row.lease_until > time ? 'busy' : 'later';
}

export async function recordIssued(db: Db, name: string, issued: { chain: string; keySealed: string; notAfter: Date }) {
  await db
    .updateTable('tls_certificates')
    .set({
      state: 'valid',
      chain: issued.chain,
      key_sealed: issued.keySealed,
      not_after: issued.notAfter.toISOString(),
      last_error: null,
      attempts: 0,
      retry_at: null,
      lease_until: null,
      updated_at: new Date().toISOString(),
    })
    .where('name', '=', name)
    .execute();
}

/** A failed order: the certificate served so far (if any) stays; the next try waits longer each time. */
export async function recordFailure(db: Db, name: string, error: string) {
  const row = await rowNamed(db, name);
  if (!row) return;
  const attempts = row.attempts + 1;
  const wait = Math.min(FIRST_RETRY_MS * 4 ** (attempts - 1), LONGEST_RETRY_MS);
  const now = Date.now();
  await db
    .updateTable('tls_certificates')
    .set({
      state: row.chain ? 'valid' : 'failed',
      last_error: error.slice(0, 1_000),
      attempts,
      retry_at: new Date(now + wait).toISOString(),
      lease_until: null,
      updated_at: new Date(now).toISOString(),
    })
    .where('name', '=', name)
    .execute();
}

/**
 * Lets failed orders be tried again now rather than after their back-off: all of them when Wharf
 * starts (a restart is how a fixed setting takes effect), or one name when someone asks. The count
 * of attempts stays, so a fix that did not work still waits longer and longer.
 */
export async function clearBackOff(db: Db, name?: string) {
  const time = new Date().toISOString();
  let update = db.updateTable('tls_certificates').set({ retry_at: time }).where('retry_at', '>', time);
  if (name !== undefined) update = update.where('name', '=', name);
  await update.execute();
}

/** How many names of a site were first ordered since a time (the per-site rate limit counts these). */
export async function ordersSince(db: Db, siteId: string, since: Date): Promise<number> {
  const row = await db
    .selectFrom('tls_certificates')
    .select((s) => s.fn.countAll<number>().as('count'))
    .where('site_id', '=', siteId)
    .where('created_at', '>=', since.toISOString())
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
