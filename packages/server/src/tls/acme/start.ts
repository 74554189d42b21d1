import type { Logger } from 'pino';
import { LockLost, onOneNodeAtATime } from '../../cluster/oneNodeAtATime.ts';
import type { Config } from '../../config/types.ts';
import type { Db } from '../../db/schema.ts';
import type { Sealer } from '../../lib/secrets.ts';
import { AcmeCertificates } from './acmeCertificates.ts';
import { clearBackOff } from './certificateRows.ts';
import { HttpChallenges } from './httpChallenges.ts';
import { AcmeIssuer, type TxtPublisher } from './issuer.ts';

/** How often the process that renews looks for certificates due. */
const RENEWAL_INTERVAL_MS = 60 * 60_000;
/** The first look, soon after start (a process that was down may have let some come due). */
const FIRST_RENEWAL_MS = 30_000;

export interface Acme {
  certificates: AcmeCertificates;
  challenges: HttpChallenges;
}

export interface AcmeParts {
  db: Db;
  sealer: Sealer;
  ticketKeys: Buffer;
  log: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** The DNS-01 publisher when `WHARF_ACME_DNS` is set: sites' hosts then get wildcards. */
  dns: TxtPublisher | null;
  /** The HTTP-01 answers the process's plain HTTP listener serves (see `httpChallengesFor`). */
  challenges: HttpChallenges;
}

/** The HTTP-01 answers to serve on plain HTTP when HTTPS obtains certificates; null otherwise. */
export function httpChallengesFor(config: Config, db: Db): HttpChallenges | null {
  return config.https?.acme ? new HttpChallenges(db) : null;
}

/** ACME for a process when HTTPS obtains certificates (`config.https.acme`); null otherwise. */
export function createAcme(config: Config, parts: AcmeParts): Acme | null {
  const settings = config.https?.acme;
  if (!settings) return null;
  const { challenges } = parts;
  const issuer = new AcmeIssuer(
    parts.db,
    parts.sealer,
    settings,
    config.extraCaCerts,
    { http: challenges, dns: parts.dns },
    parts.log,
  );
  const certificates = new AcmeCertificates({
    db: parts.db,
    sealer: parts.sealer,
    issuer,
    ticketKeys: parts.ticketKeys,
    log: parts.log,
    hosts: {
      consoleHost: config.url.hostname,
      sitesHost: config.sitesUrl.hostname,
      wildcards: parts.dns !== null,
      branchHosts: config.branchHosts,
    },
  });
  return { certificates, challenges };
}

/** Renews in the background from now on (one process of each node does); returns the stop. */
export function scheduleRenewals(acme: Acme, db: Db, log: Pick<Logger, 'warn' | 'error'>): () => void {
  // A restart is how a fixed setting takes effect: failed orders are tried again at once, not after their back-off.
  let running: Promise<void> = clearBackOff(db).catch((error) =>
    log.error({ err: error }, 'could not clear the back-off of failed certificate orders'),
  );
  const pass = () => {
    running = running
      .then(async () => {
        await onOneNodeAtATime(db, 'certificate-renewals', (held) => acme.certificates.renewDue(new Date(), held));
      })
      .catch((error) => {
        if (error instanceof LockLost)
          log.warn({ err: error }, 'certificate renewal pass stopped: the next one takes it up');
        else log.error({ err: error }, 'certificate renewal pass failed');
      });
  };
  const first = setTimeout(pass, FIRST_RENEWAL_MS);
  const every = setInterval(pass, RENEWAL_INTERVAL_MS);
  first.unref();
  every.unref();
  return () => {
    clearTimeout(first);
    clearInterval(every);
  };
}
