import { z } from 'zod';
import { messages, patterns } from '../messages.ts';
import { reservedHeaderReason } from '../reservedHeaders.ts';
import { bool, color, id, matching, name, password, requiredText, siteName, text, uniqueBy } from '../validation.ts';
import { certificateStatus } from './certificate.ts';
import { logoUrl, timestamp } from './common.ts';

export const header = z.object({
  name: matching(patterns.headerName).refine((name) => reservedHeaderReason(name) === null, {
    message: messages.headerNameReserved,
  }),
  value: text().regex(patterns.headerValue, messages.headerValueAscii),
  /**
   * The paths the header is for, as in `_headers`: `/assets/*`, `/:lang/about`; empty or absent,
   * every path.
   */
  path: z
    .string()
    .max(1000, 'Max length is 1000')
    .regex(patterns.headerPath, "Must be empty or start with '/'")
    .optional(),
});
export type Header = z.infer<typeof header>;
export const headers = uniqueBy(
  z.array(header).max(100, 'At most 100 headers'),
  (h) => `${h.path ?? ''} ${h.name.toLowerCase()}`,
  messages.headerNameUnique,
  'name',
);

const pemCertificate = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/;
const pemRsaKey = /-----BEGIN (RSA )?PRIVATE KEY-----[\s\S]+?-----END (RSA )?PRIVATE KEY-----/;

export const sslConfiguration = z.discriminatedUnion(
  'type',
  [
    z.object({
      type: z.literal('acme'),
      // Answers only (ignored on a save): the certificate Wharf obtains for the domain; absent
      // until it is first asked for (at the domain's first HTTPS request).
      status: certificateStatus.optional(),
    }),
    // TLS is terminated elsewhere (a proxy or load balancer in front of Wharf), or not at all.
    z.object({ type: z.literal('external') }),
    z.object({
      type: z.literal('manual'),
      fullchain: requiredText(100_000).regex(pemCertificate, 'Must be a PEM certificate chain'),
      // Write-only: answers never carry it. Left out on a save, the key saved for this domain stays.
      privateKey: requiredText(100_000).regex(pemRsaKey, 'Must be a PEM RSA private key').optional(),
      // Answers only, read from the chain (ignored on a save): what the certificate covers, and until when.
      certificate: z
        .object({ expiresAt: timestamp, names: z.array(z.string()), issuer: z.string().nullable() })
        .optional(),
    }),
  ],
  { error: 'Must be acme, manual or external' },
);
export type SslConfiguration = z.infer<typeof sslConfiguration>;

/**
 * Whether the site's owners proved they hold a custom domain, which Wharf serves only then. Owned by
 * the server: ignored on a save, kept across saves while the domain keeps its name.
 */
export const domainOwnership = z.object({
  /** The value of the TXT record `_wharf.{domain}`, and the last segment of the HTTP challenge's path. */
  token: z.string(),
  verifiedAt: timestamp.nullable(),
  /** Why the last check failed, until one succeeds. */
  lastError: z.string().optional(),
  /**
   * Set when the claim ended unverified: another site verified the name or a domain above it
   * (`taken`), or it was not verified in time (`expired`). Wharf no longer answers its HTTP
   * challenge; the TXT record can still prove it once nobody else holds the name.
   */
  ended: z.object({ reason: z.enum(['taken', 'expired']), at: timestamp, message: z.string() }).optional(),
});
export type DomainOwnership = z.infer<typeof domainOwnership>;

export const domainName = requiredText().regex(patterns.hostName, 'Must be a host name such as www.example.com');

export const domain = z.object({
  name: domainName,
  exposeBranches: bool.default(false),
  /**
   * The site's one address: once it is verified, the main branch's other addresses (the site's own,
   * its other domains) answer with a 301 to it. At most one domain of a site is primary.
   */
  primary: bool.default(false),
  sslConfiguration: sslConfiguration.default({ type: 'acme' }),
  /** Answers only (ignored on a save). */
  ownership: domainOwnership.optional(),
});
export type Domain = z.infer<typeof domain>;

/** A DNS record to create at the domain's DNS host so that the domain reaches this installation. */
export const dnsRecord = z.object({
  /** ALIAS: a CNAME at the apex, as DNS hosts that offer it call it (ALIAS, ANAME, CNAME flattening). */
  type: z.enum(['A', 'AAAA', 'CNAME', 'ALIAS']),
  name: z.string(),
  value: z.string(),
});
export type DnsRecord = z.infer<typeof dnsRecord>;

/** Where a custom domain points now, and what to create to point it here: checked live, when asked. */
export const domainDns = z.object({
  name: z.string(),
  /** The domain is a zone's apex (example.com), where no CNAME may be: A and AAAA records instead. */
  apex: z.boolean(),
  records: z.array(dnsRecord),
  /** `pointsHere`: its CNAME is the site's address, or every address it has is this installation's. */
  state: z.enum(['pointsHere', 'awaitingDns']),
  /** What DNS answers for it now, in words. */
  found: z.string(),
  checkedAt: timestamp,
});
export type DomainDns = z.infer<typeof domainDns>;

/** Whether Wharf may serve a domain: its owners proved they hold it (one saved before ownership existed was verified by migration 013). */
export const isDomainVerified = (domain: Domain) => Boolean(domain.ownership?.verifiedAt);
export const domains = z
  .array(domain)
  .max(100, 'At most 100 domains')
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    let primary = false;
    list.forEach((entry, index) => {
      if (seen.has(entry.name))
        ctx.addIssue({ code: 'custom', message: messages.duplicateDomain, path: [index, 'name'] });
      seen.add(entry.name);
      if (entry.primary && primary)
        ctx.addIssue({ code: 'custom', message: messages.onePrimaryDomain, path: [index, 'primary'] });
      primary ||= entry.primary;
    });
  });

/**
 * How long a site keeps the releases no branch serves: those older than `keepReleasesDays` or
 * beyond the newest `keepReleasesCount` are deleted; null: no limit of that kind.
 */
export const siteRetention = z.object({
  keepReleasesDays: z
    .number({ error: 'Must be a number of days' })
    .int('Must be a whole number')
    .min(1, 'Must be at least 1')
    .max(3650, 'Must be at most 3650')
    .nullable(),
  keepReleasesCount: z
    .number({ error: 'Must be a number of releases' })
    .int('Must be a whole number')
    .min(1, 'Must be at least 1')
    .max(100_000, 'Must be at most 100000')
    .nullable(),
});
export type SiteRetention = z.infer<typeof siteRetention>;

/** The disk a site's releases take: each stored file counted once, however many releases share it. */
export const siteUsage = z.object({
  releases: z.number(),
  /** Distinct files (by content) its releases hold. */
  files: z.number(),
  /** Their bytes as uploaded. */
  bytes: z.number(),
  /** The brotli and gzip copies stored beside them. */
  compressedBytes: z.number(),
});
export type SiteUsage = z.infer<typeof siteUsage>;

export const branchSummary = z.object({ _id: z.string(), name: z.string(), url: z.string() });

export const site = z.object({
  _id: z.string(),
  name: z.string(),
  color: z.string(),
  logo: logoUrl,
  /** The URL of the main branch. */
  url: z.string(),
  teamId: z.string(),
  orgId: z.string(),
  branches: z.array(branchSummary),
  mainBranch: z.string(),
  spa: z.boolean(),
  /** `/about.html` redirects to `/about` (308), as the platforms sites move from do. */
  prettyUrls: z.boolean(),
  hasPassword: z.boolean(),
  domains: z.array(domain),
  headers: z.array(header),
  retention: siteRetention,
  createdAt: timestamp,
  /** What the main branch serves: the site's production release; null before the first upload. */
  live: z
    .object({
      _id: z.string(),
      name: z.string(),
      date: timestamp,
      /** The release's own address. */
      url: z.string(),
      commit: z.string().nullable(),
      author: z.string().nullable(),
    })
    .nullable(),
  /** The site's newest deploy, made into a release or failed; null when there was none. */
  lastDeploy: z
    .object({
      state: z.enum(['succeeded', 'failed']),
      name: z.string(),
      at: timestamp,
      /** Why it failed. */
      message: z.string().nullable(),
    })
    .nullable(),
});
export type Site = z.infer<typeof site>;

/** Without a color, the server derives one from the name. */
export const createSiteBody = z.object({ name: siteName, color: color.optional() });
export const validateSiteNameBody = z.object({ name: siteName });
export const updateSiteBody = z.object({
  name: siteName,
  color,
  mainBranch: id,
  spa: bool,
  /** Absent: unchanged. */
  prettyUrls: bool.optional(),
  domains,
});
export const siteHeadersBody = z.object({ headers });
export const passwordBody = z.object({ password });

export const siteToken = z.object({ _id: z.string(), name: z.string(), createdAt: timestamp, value: z.string() });
export type SiteToken = z.infer<typeof siteToken>;
export const createSiteTokenBody = z.object({ name });
