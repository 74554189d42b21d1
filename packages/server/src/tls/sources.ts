import type { RequestListener } from 'node:http';
import type { Logger } from 'pino';
import type { Config } from '../config/types.ts';
import type { Db } from '../db/schema.ts';
import type { Sealer } from '../lib/secrets.ts';
import { DnsUpdater } from './acme/dnsUpdate.ts';
import { acmeChallengeListener, type HttpChallenges } from './acme/httpChallenges.ts';
import { type Acme, createAcme } from './acme/start.ts';
import type { HostDirectory } from './hostDirectory.ts';
import { type TlsFront, ticketKeysFrom } from './https.ts';
import { ManualCertificates } from './manualCertificates.ts';

export { httpChallengesFor } from './acme/start.ts';

function dnsUpdaterFor(config: Config): DnsUpdater | null {
  const settings = config.https?.acme?.dns;
  return settings ? new DnsUpdater(settings) : null;
}

/** The plain HTTP listener, answering ACME's HTTP-01 requests first when certificates are obtained. */
export function withAcmeChallenges(challenges: HttpChallenges | null, next: RequestListener): RequestListener {
  return challenges ? acmeChallengeListener(challenges, next) : next;
}

export interface TlsSourceParts {
  db: Db;
  sealer: Sealer;
  secret: string;
  /** The process's TLS listener; null where it takes no TLS connection (a cluster's primary). */
  tls: TlsFront | null;
  /** The custom domains this process serves (the edge's routing table). */
  hosts: HostDirectory;
  challenges: HttpChallenges | null;
  log: Pick<Logger, 'info' | 'warn' | 'error'>;
}

/**
 * What the TLS listener serves beyond the operator's certificate, in this order: manual
 * certificates of custom domains (from the routing table), then certificates obtained over ACME.
 * Returns the ACME side when certificates are obtained (its renewals run where the caller says).
 */
export function startTlsSources(config: Config, parts: TlsSourceParts): Acme | null {
  const ticketKeys = ticketKeysFrom(parts.secret);
  if (parts.tls) parts.tls.certificates.addSource(new ManualCertificates(parts.hosts, ticketKeys, parts.sealer));
  const acme = parts.challenges
    ? createAcme(config, { ...parts, challenges: parts.challenges, ticketKeys, dns: dnsUpdaterFor(config) })
    : null;
  if (parts.tls && acme) parts.tls.certificates.addSource(acme.certificates);
  return acme;
}
