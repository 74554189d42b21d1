import type tls from 'node:tls';
import type { Logger } from 'pino';
import type { Db } from '../../db/schema.ts';
import type { Sealer } from '../../lib/secrets.ts';
import { failureText } from '../../outbound/outsideServices.ts';
import { type CertificateSource, type ServedCertificate, secureContextOf } from '../certificateStore.ts';
import {
  type CertificateRow,
  claimOrder,
  clearBackOff,
  issuedCertificates,
  ordersSince,
  recordFailure,
  recordIssued,
  rowNamed,
  servableRows,
} from './certificateRows.ts';
import { type CertificatePlan, certificatePlanFor, type HostPlanSettings, planForName } from './hostPlan.ts';
import type { AcmeIssuer } from './issuer.ts';

const DAY_MS = 24 * 60 * 60_000;
/** Certificates are renewed this long before they expire. */
export const RENEW_BEFORE_MS = 30 * DAY_MS;
/** A certificate found is served this long before the database is asked again (renewals reach every process so). */
const FOUND_TTL_MS = 5 * 60_000;
/** A host with no certificate to be had is not looked up again for this long. */
const REFUSED_TTL_MS = 10_000;
/** New names a site may have ordered in an hour (its hosts and branch hosts): a flood of branches waits. */
export const ORDERS_PER_SITE_PER_HOUR = 30;
/** How long an order of another process is waited for (its lease), at most. */
const WAIT_FOR_OTHERS_MS = 90_000;
const POLL_MS = 500;
/**
 * How long a visitor's handshake waits for its host's certificate to be ordered (a CA takes a few
 * seconds): past it, the handshake fails at once and the order goes on for the next visit.
 */
const HANDSHAKE_WAIT_MS = 20_000;
/** How long asking for a retry waits for its outcome before answering with the order still under way. */
const RETRY_WAIT_MS = 30_000;

/** How an order asked for ended: a certificate, a failure (recorded), or no order made now. */
type OrderOutcome = 'issued' | 'failed' | 'backing-off' | 'rate-limited' | 'ordered-elsewhere';

/** The order's outcome, or 'still-ordering' once `ms` passed (the order goes on). */
function within(order: Promise<OrderOutcome>, ms: number): Promise<OrderOutcome | 'still-ordering'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'still-ordering'>((resolve) => {
    timer = setTimeout(() => resolve('still-ordering'), ms);
  });
  return Promise.race([order, late]).finally(() => clearTimeout(timer));
}

interface Found {
  context: tls.SecureContext | null;
  expiresAt: number;
}

export interface AcmeCertificatesParts {
  db: Db;
  sealer: Sealer;
  issuer: AcmeIssuer;
  hosts: HostPlanSettings;
  ticketKeys: Buffer;
  log: Pick<Logger, 'info' | 'warn' | 'error'>;
}

/**
 * Certificates obtained over ACME: served from the database (shared by every worker and node),
 * ordered at a host's first TLS request when the host is one Wharf serves (HTTP-01, or a DNS-01
 * wildcard over its parent), and renewed 30 days before they expire.
 */
export class AcmeCertificates implements CertificateSource {
  private readonly found = new Map<string, Found>();
  private readonly orders = new Map<string, Promise<OrderOutcome>>();

  constructor(private readonly parts: AcmeCertificatesParts) {}

  async contextFor(host: string): Promise<tls.SecureContext | null> {
    const known = this.found.get(host);
    if (known && known.expiresAt > Date.now()) return known.context;
    const context = await this.lookUp(host);
    this.found.set(host, { context, expiresAt: Date.now() + (context ? FOUND_TTL_MS : REFUSED_TTL_MS) });
    if (this.found.size > 50_000) this.found.clear();
    return context;
  }

  /**
   * Orders what is due, one by one: certificates expiring within 30 days, and first orders whose
   * retry time has come. Stops between two when `held` says the run's lock went.
   */
  async renewDue(now = new Date(), held?: AbortSignal): Promise<void> {
    const before = new Date(now.getTime() + RENEW_BEFORE_MS).toISOString();
    const due = await this.parts.db
      .selectFrom('tls_certificates')
      .select('name')
      .where((w) =>
        w.or([
          w.and([w('chain', 'is not', null), w('not_after', '<', before)]),
          w.and([w('chain', 'is', null), w('retry_at', '<=', now.toISOString())]),
        ]),
      )
      .execute();
    for (const { name } of due) {
      held?.throwIfAborted();
      const plan = await planForName(this.parts.db, this.parts.hosts, name);
      if (!plan) {
        await this.parts.db.deleteFrom('tls_certificates').where('name', '=', name).execute();
        this.parts.log.info({ name }, 'no longer served: its certificate is not renewed');
        continue;
      }
      await this.orderOnce(plan);
    }
  }

  private async lookUp(host: string): Promise<tls.SecureContext | null> {
    const held = await this.servedFor(host);
    if (held) return held;
    const plan = await certificatePlanFor(this.parts.db, this.parts.hosts, host);
    if (!plan) return null;
    const outcome = await within(this.orderOnce(plan), HANDSHAKE_WAIT_MS);
    const served = await this.servedFor(host);
    if (!served) await this.explainRefusal(host, plan.name, outcome);
    return served;
  }

  /**
   * Says in the log why a host Wharf serves got no certificate (a failed order said so already):
   * once per host and REFUSED_TTL_MS, as `contextFor` remembers the refusal that long.
   */
  private async explainRefusal(host: string, name: string, outcome: OrderOutcome | 'still-ordering') {
    // A failed order and a site's rate limit said so as they happened.
    if (outcome === 'failed' || outcome === 'rate-limited') return;
    const row = await rowNamed(this.parts.db, name);
    const ordering = outcome === 'still-ordering' || (row?.lease_until ?? '') > new Date().toISOString();
    if (ordering || !row?.last_error)
      this.parts.log.warn({ host, name }, 'no certificate yet: it is still being ordered, this handshake fails');
    else
      this.parts.log.warn(
        { host, name, reason: row.last_error, nextAttemptAt: row.retry_at },
        `no certificate: the last order failed (${row.last_error}); the next is at ${row.retry_at}, or at once on Retry now or a restart`,
      );
  }

  /** Every certificate obtained, as every process serves them (from the database). */
  async served(): Promise<ServedCertificate[]> {
    const issued = await issuedCertificates(this.parts.db);
    return issued.map(({ name, notAfter }) => ({ name, source: 'acme', notAfter }));
  }

  /** A valid certificate in the database for the host: its own, or a wildcard over its parent. */
  private async servedFor(host: string): Promise<tls.SecureContext | null> {
    const dot = host.indexOf('.');
    const names = dot > 0 ? [host, `*.${host.slice(dot + 1)}`] : [host];
    const rows = await servableRows(this.parts.db, names);
    const now = new Date().toISOString();
    const row = rows
      .filter((candidate) => candidate.not_after !== null && candidate.not_after > now)
      .sort((a, b) => names.indexOf(a.name) - names.indexOf(b.name))[0];
    return row ? this.contextOf(row) : null;
  }

  private contextOf(row: CertificateRow): tls.SecureContext | null {
    try {
      return secureContextOf(row.chain ?? '', this.parts.sealer.open(row.key_sealed ?? ''), this.parts.ticketKeys);
    } catch (error) {
      this.parts.log.error({ err: error, name: row.name }, 'a stored certificate cannot be served');
      return null;
    }
  }

  /**
   * Orders a name now, whatever the back-off of its last failure (someone fixed what made it
   * fail), and waits for the outcome a while; null when Wharf no longer serves the name.
   */
  async retryNow(name: string): Promise<OrderOutcome | 'still-ordering' | null> {
    const plan = await planForName(this.parts.db, this.parts.hosts, name);
    if (!plan) return null;
    await clearBackOff(this.parts.db, name);
    return within(this.orderOnce(plan), RETRY_WAIT_MS);
  }

  /** One order per name at a time in this process; across processes the row's lease decides. */
  private orderOnce(plan: CertificatePlan): Promise<OrderOutcome> {
    const running = this.orders.get(plan.name);
    if (running) return running;
    const order = this.order(plan).finally(() => this.orders.delete(plan.name));
    this.orders.set(plan.name, order);
    return order;
  }

  private async order(plan: CertificatePlan): Promise<OrderOutcome> {
    const { db } = this.parts;
    if (plan.siteId && !(await rowNamed(db, plan.name)) && (await this.overSiteLimit(plan.siteId))) {
      this.parts.log.warn(
        { name: plan.name, siteId: plan.siteId },
        'certificate orders for this site wait: rate limit',
      );
      return 'rate-limited';
    }
    const renewBefore = new Date(Date.now() + RENEW_BEFORE_MS);
    const claim = await claimOrder(db, plan, renewBefore);
    if (claim === 'busy') {
      await this.waitForOthers(plan.name);
      return 'ordered-elsewhere';
    }
    if (claim === 'later') return 'backing-off';
    try {
      const issued = await this.parts.issuer.order(plan.name, plan.challenge);
      await recordIssued(db, plan.name, { ...issued, keySealed: this.parts.sealer.seal(issued.key) });
      this.forget(plan.name);
      return 'issued';
    } catch (error) {
      const reason = failureText(error);
      this.parts.log.error({ name: plan.name, reason }, `could not obtain a certificate over ACME: ${reason}`);
      await recordFailure(db, plan.name, reason);
      return 'failed';
    }
  }

  private async overSiteLimit(siteId: string) {
    return (await ordersSince(this.parts.db, siteId, new Date(Date.now() - 60 * 60_000))) >= ORDERS_PER_SITE_PER_HOUR;
  }

  private async waitForOthers(name: string) {
    const until = Date.now() + WAIT_FOR_OTHERS_MS;
    while (Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      const row = await rowNamed(this.parts.db, name);
      if (!row?.lease_until || row.lease_until < new Date().toISOString()) return;
    }
  }

  /** Drops what this process remembers of the hosts a new certificate serves. */
  private forget(name: string) {
    if (!name.startsWith('*.')) this.found.delete(name);
    else for (const host of this.found.keys()) if (host.endsWith(name.slice(1))) this.found.delete(host);
  }
}
