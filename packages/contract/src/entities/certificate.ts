import { z } from 'zod';
import { patterns } from '../messages.ts';
import { requiredText } from '../validation.ts';
import { timestamp } from './common.ts';

/**
 * Where a certificate Wharf obtains over ACME stands: being ordered, valid until when, or failed
 * with the reason and the time of the next attempt (a served certificate stays served while its
 * renewal fails: `valid` with a `lastError`).
 */
export const certificateStatus = z.object({
  state: z.enum(['pending', 'valid', 'failed']),
  validUntil: timestamp.nullable(),
  lastError: z.string().nullable(),
  nextAttemptAt: timestamp.nullable(),
  /** The names the certificate served now covers (empty until one is obtained). */
  names: z.array(z.string()),
  /** Who issued it (its issuer's common name and organization); null until one is obtained. */
  issuer: z.string().nullable(),
});
export type CertificateStatus = z.infer<typeof certificateStatus>;

/** A certificate's name: a host, or a wildcard over the hosts one level below a name (`*.{site}.{sites host}`). */
export const certificateName = requiredText(255).refine(
  (name) => patterns.hostName.test(name.startsWith('*.') ? name.slice(2) : name),
  'Must be a host name, or *. before one',
);

/**
 * A certificate that serves a site's addresses: the site's host and its branches' hosts (or the
 * wildcards over them), and its custom domains set to automatic. `shared` marks one that serves
 * every site (`*.{sites host}`): its state shows here, and only the installation retries it.
 */
export const siteCertificate = certificateStatus.extend({
  name: z.string(),
  shared: z.boolean(),
});
export type SiteCertificate = z.infer<typeof siteCertificate>;
