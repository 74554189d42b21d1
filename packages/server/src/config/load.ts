import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { clusterSettings } from '../clusterSettings.ts';
import { parseTrustProxy, trustNobody } from '../http/trustProxy.ts';
import { signInEnvironment, signInSettings } from '../modules/auth/signInSettings.ts';
import { buildEnvironment, buildSettings } from '../modules/builds/buildSettings.ts';
import { extraCaCertsSetting } from '../outbound/outsideServices.ts';
import { privateAllowListSetting } from '../outbound/privateAllowList.ts';
import { storageSettings } from '../storage/storageSettings.ts';
import { parseDnsUpdateUrl } from '../tls/acme/dnsUpdateSettings.ts';
import { type Config, ConfigError, type HttpsConfig, LETS_ENCRYPT_DIRECTORY } from './types.ts';

/** A positive number of seconds, `fallback` when unset. */
const seconds = (fallback: number) =>
  z.coerce
    .number({ error: 'must be a number of seconds' })
    .positive('must be a number of seconds, more than 0')
    .default(fallback);

/** A setting a feature's own parser reads; what it throws becomes the setting's problem. */
const parsedBy = <T>(parse: (value: string) => T) =>
  z
    .string()
    .transform((value, ctx) => {
      try {
        return parse(value);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    })
    .optional();

/** Every environment variable Wharf reads, with its default; README.md documents the same list. */
const environment = z
  .object({
    WHARF_URL: z.url({ error: 'must be a URL such as http://localhost:8080' }).optional(),
    WHARF_SITES_URL: z.url({ error: 'must be a URL such as http://localhost:8080' }).optional(),
    WHARF_SITES_PORT: z.coerce.number({ error: 'must be a port number' }).int().min(0).max(65535).optional(),
    WHARF_METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    WHARF_ALLOW_PRIVATE_UPSTREAMS: z.enum(['on', 'off'], { error: 'must be on or off' }).default('off'),
    WHARF_HOOKS_ALLOWED_PRIVATE: privateAllowListSetting('WHARF_HOOKS_ALLOWED_PRIVATE'),
    WHARF_PROXY_ALLOWED_PRIVATE: privateAllowListSetting('WHARF_PROXY_ALLOWED_PRIVATE'),
    PORT: z.coerce.number({ error: 'must be a port number' }).int().min(0).max(65535).default(8080),
    HOST: z.string().default('0.0.0.0'),
    WHARF_HTTPS_PORT: z.coerce.number({ error: 'must be a port number' }).int().min(0).max(65535).optional(),
    WHARF_TLS_CERT: z.string().optional(),
    WHARF_TLS_KEY: z.string().optional(),
    WHARF_HSTS: z
      .string()
      .regex(
        /^(?:off|max-age=\d+(?:\s*;\s*(?:includeSubDomains|preload))*)$/i,
        'must be off or a Strict-Transport-Security value such as max-age=31536000; includeSubDomains',
      )
      .optional(),
    WHARF_TRUST_PROXY: parsedBy(parseTrustProxy),
    WHARF_DATA_DIR: z.string().min(1, 'must not be empty').default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL (leave it unset for the embedded SQLite)')
      .optional(),
    WHARF_USERS: z.string().optional(),
    WHARF_STORAGE: z.string().optional(),
    WHARF_ROLE: z.string().optional(),
    REDIS_URL: z.string().optional(),
    WHARF_NODE_NAME: z.string().optional(),
    WHARF_S3_ENDPOINT: z.string().optional(),
    WHARF_S3_TIMEOUT_SECONDS: seconds(3),
    WHARF_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    WHARF_INVITE_TTL_DAYS: z.coerce.number({ error: 'must be a number of days' }).positive().default(7),
    WHARF_SESSION_TTL_DAYS: z.coerce.number({ error: 'must be a number of days' }).positive().default(30),
    WHARF_TRAFFIC_RETENTION_DAYS: z.coerce
      .number({ error: 'must be a number of days' })
      .int('must be a whole number of days')
      .min(1, 'must be at least 1')
      .max(3660, 'must be at most 3660 (ten years)')
      .default(90),
    WHARF_CRASH_REPORT_DSN: z.url({ error: 'must be a URL' }).optional(),
    WHARF_ANALYTICS: z.enum(['on', 'off'], { error: 'must be on or off' }).default('on'),
    WHARF_BRANCH_HOSTS: z.enum(['nested', 'flat'], { error: 'must be nested or flat' }).default('nested'),
    WHARF_PUBLIC_ADDRESSES: z
      .string()
      .optional()
      .transform((value) =>
        (value ?? '')
          .split(',')
          .map((address) => address.trim())
          .filter(Boolean),
      )
      .refine(
        (addresses) => addresses.every((address) => isIP(address) !== 0),
        'must be IP addresses separated by commas',
      ),
    WHARF_DNS_SERVER: z
      .string()
      .regex(
        /^(?:\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:.]+\]):\d{1,5}$/i,
        'must be an address and port, such as 10.0.0.2:53 or [fd00::2]:53',
      )
      .optional(),
    WHARF_OWNERSHIP_HTTP_PORT: z.coerce.number({ error: 'must be a port number' }).int().min(1).max(65535).default(80),
    WHARF_ACME_DIRECTORY: z.url({ error: 'must be the URL of an ACME directory' }).optional(),
    WHARF_ACME_EMAIL: z.email({ error: 'must be an email address' }).optional(),
    WHARF_EXTRA_CA_CERTS: extraCaCertsSetting,
    WHARF_ACME_DNS: parsedBy(parseDnsUpdateUrl),
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .optional(),
    SMTP_FROM: z
      .string()
      .regex(/^(?:[^<>@\s][^<>]*<[^<>@\s]+@[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+)$/, 'must be an address, or "Name <address>"')
      .optional(),
    WHARF_MAX_ARCHIVE_BYTES: z.coerce
      .number({ error: 'must be a number of bytes' })
      .int()
      .positive()
      .default(1024 ** 3),
    WHARF_MAX_RELEASE_BYTES: z.coerce
      .number({ error: 'must be a number of bytes' })
      .int()
      .positive()
      .default(4 * 1024 ** 3),
    WHARF_MAX_RELEASE_FILES: z.coerce.number({ error: 'must be a number of files' }).int().positive().default(100_000),
    WHARF_DEPLOY_TTL_MINUTES: z.coerce.number({ error: 'must be a number of minutes' }).positive().default(60),
    WHARF_UPLOAD_IDLE_SECONDS: seconds(60),
    WHARF_UPLOAD_DEADLINE_SECONDS: seconds(3600),
    WHARF_COMPRESSION_THREADS: z.coerce
      .number({ error: 'must be a whole number of threads' })
      .int('must be a whole number of threads')
      .min(1, 'must be 1 or more')
      .optional(),
    WHARF_SHUTDOWN_GRACE_SECONDS: z.coerce
      .number({ error: 'must be a number of seconds' })
      .min(0, 'must be a number of seconds, 0 or more')
      .default(30),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  })
  .extend(signInEnvironment.shape)
  .extend(buildEnvironment.shape);

export type Environment = z.infer<typeof environment>;

/** The name of every variable Wharf reads. */
export const ENVIRONMENT_VARIABLES = Object.keys(environment.shape);

const DAY_MS = 24 * 60 * 60 * 1000;

/** Turns the environment into a typed configuration; each problem names its variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const blankless = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = environment.safeParse(blankless);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const e = parsed.data;
  const url = new URL(e.WHARF_URL ?? `http://localhost:${e.PORT}`);
  const signIn = signInSettings(e);
  const storage = storageSettings(e);
  const cluster = clusterSettings(e);
  const builds = buildSettings(e);
  const problems = [...signIn.problems, ...storage.problems, ...cluster.problems, ...renamedSettings(blankless)];
  if (e.WHARF_ROLE?.split(',').some((role) => role.trim() === 'builder') && !builds)
    problems.push('WHARF_BUILD_RUNTIME must name a container runtime (podman or docker) for WHARF_ROLE builder');
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  return {
    url,
    sitesUrl: new URL(e.WHARF_SITES_URL ?? url),
    branchHosts: e.WHARF_BRANCH_HOSTS,
    port: e.PORT,
    sitesPort: e.WHARF_SITES_PORT ?? null,
    metricsToken: e.WHARF_METRICS_TOKEN ?? null,
    allowPrivateUpstreams: e.WHARF_ALLOW_PRIVATE_UPSTREAMS === 'on',
    hooksAllowedPrivate: e.WHARF_HOOKS_ALLOWED_PRIVATE,
    proxyAllowedPrivate: e.WHARF_PROXY_ALLOWED_PRIVATE,
    host: e.HOST,
    https: httpsConfig(e),
    trustProxy: e.WHARF_TRUST_PROXY ?? trustNobody,
    dataDir: path.resolve(e.WHARF_DATA_DIR),
    databaseUrl: e.DATABASE_URL ?? null,
    storage: storage.settings,
    ...cluster.settings,
    builds,
    users: parseUsers(e.WHARF_USERS),
    signIn: signIn.settings,
    secret: e.WHARF_SECRET ?? null,
    inviteTtlMs: e.WHARF_INVITE_TTL_DAYS * DAY_MS,
    trafficRetentionDays: e.WHARF_TRAFFIC_RETENTION_DAYS,
    sessionTtlMs: e.WHARF_SESSION_TTL_DAYS * DAY_MS,
    crashReportDsn: e.WHARF_CRASH_REPORT_DSN ?? null,
    analytics: e.WHARF_ANALYTICS === 'on',
    dnsServer: e.WHARF_DNS_SERVER ?? null,
    publicAddresses: e.WHARF_PUBLIC_ADDRESSES,
    ownershipHttpPort: e.WHARF_OWNERSHIP_HTTP_PORT,
    smtpUrl: e.SMTP_URL ?? null,
    extraCaCerts: e.WHARF_EXTRA_CA_CERTS,
    smtpFrom: e.SMTP_FROM ?? `Wharf <wharf@${url.hostname}>`,
    logLevel: e.LOG_LEVEL,
    limits: {
      archiveBytes: e.WHARF_MAX_ARCHIVE_BYTES,
      releaseBytes: e.WHARF_MAX_RELEASE_BYTES,
      releaseFiles: e.WHARF_MAX_RELEASE_FILES,
    },
    deployTtlMs: e.WHARF_DEPLOY_TTL_MINUTES * 60_000,
    uploadTimeouts: { idleMs: e.WHARF_UPLOAD_IDLE_SECONDS * 1000, deadlineMs: e.WHARF_UPLOAD_DEADLINE_SECONDS * 1000 },
    compressionThreads: e.WHARF_COMPRESSION_THREADS ?? null,
    shutdownGraceMs: e.WHARF_SHUTDOWN_GRACE_SECONDS * 1000,
  };
}

function httpsConfig(e: Environment): HttpsConfig | null {
  const problems = httpsProblems(e);
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  if (e.WHARF_HTTPS_PORT === undefined) return null;
  const hsts = e.WHARF_HSTS ?? 'max-age=31536000';
  const operatorCertificate = Boolean(e.WHARF_TLS_CERT && e.WHARF_TLS_KEY);
  // Without a certificate of the operator's, HTTPS means certificates Wharf obtains itself.
  const acmeOn = e.WHARF_ACME_DIRECTORY !== undefined || !operatorCertificate;
  return {
    port: e.WHARF_HTTPS_PORT,
    certFile: e.WHARF_TLS_CERT ? path.resolve(e.WHARF_TLS_CERT) : null,
    keyFile: e.WHARF_TLS_KEY ? path.resolve(e.WHARF_TLS_KEY) : null,
    hsts: hsts.toLowerCase() === 'off' ? null : hsts,
    acme: acmeOn
      ? {
          directoryUrl: e.WHARF_ACME_DIRECTORY ?? LETS_ENCRYPT_DIRECTORY,
          email: e.WHARF_ACME_EMAIL ?? null,
          dns: e.WHARF_ACME_DNS ?? null,
        }
      : null,
  };
}

function httpsProblems(e: Environment): string[] {
  const problems: string[] = [];
  if (e.WHARF_HTTPS_PORT === undefined) {
    if (e.WHARF_TLS_CERT || e.WHARF_TLS_KEY) problems.push('WHARF_HTTPS_PORT must be set to serve WHARF_TLS_CERT');
    for (const name of ['WHARF_ACME_DIRECTORY', 'WHARF_ACME_DNS'] as const)
      if (e[name]) problems.push(`WHARF_HTTPS_PORT must be set for ${name}: Wharf serves the certificates it obtains`);
    return problems;
  }
  if (e.WHARF_TLS_CERT && !e.WHARF_TLS_KEY)
    problems.push('WHARF_TLS_KEY must name the key file (PEM) of WHARF_TLS_CERT');
  if (e.WHARF_TLS_KEY && !e.WHARF_TLS_CERT)
    problems.push('WHARF_TLS_CERT must name the certificate file (PEM) of WHARF_TLS_KEY');
  if (e.WHARF_HTTPS_PORT === e.PORT) problems.push('WHARF_HTTPS_PORT must differ from PORT');
  return problems;
}

/** Settings that were renamed: an installation that still sets one would silently lose what it did. */
function renamedSettings(env: Record<string, string | undefined>): string[] {
  return env.WHARF_ACME_CA_FILE
    ? ['WHARF_ACME_CA_FILE is now WHARF_EXTRA_CA_CERTS, trusted by every outside service Wharf connects to: rename it']
    : [];
}

/** `WHARF_USERS` is `name:hash` pairs separated by commas or new lines; hashes come from `npm run hash-password`. */
function parseUsers(value: string | undefined): Map<string, string> {
  const users = new Map<string, string>();
  if (!value) return users;
  for (const entry of value.split(/[,\n]/).map((item) => item.trim())) {
    if (!entry) continue;
    const separator = entry.indexOf(':');
    const name = entry.slice(0, separator);
    const hash = entry.slice(separator + 1);
    if (separator < 1 || !hash.startsWith('scrypt$')) {
      throw new ConfigError(
        `Invalid configuration:\n  WHARF_USERS entry "${entry.slice(0, 40)}" must be name:hash, the hash made by npm run hash-password`,
      );
    }
    users.set(name, hash);
  }
  return users;
}

/** Reads `.env` from the working directory when there is one; real environment variables win. */
export function loadDotEnv(file = '.env') {
  if (existsSync(file)) process.loadEnvFile(file);
}
