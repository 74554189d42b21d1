import type { SignInProvider } from '@wharf/contract';
import type ipaddr from 'ipaddr.js';

/**
 * The configuration's types: what every part of Wharf reads of its settings. They sit below every
 * feature and import nothing of Wharf's; the loader (`load.ts`) and each feature's parser of its
 * own settings (sign-in, storage, DNS updates, roles, proxies, allow-lists) sit above and make them.
 */

/** How a branch's host is made: `{branch}.{site}.{host}`, or `{branch}--{site}.{host}`. */
export type BranchHosts = 'nested' | 'flat';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** The TSIG algorithms Wharf signs its DNS updates with (RFC 8945), by their DNS names. */
export type TsigAlgorithm = 'hmac-sha256' | 'hmac-sha512';

/** Certificates obtained over ACME (RFC 8555). */
export interface AcmeConfig {
  directoryUrl: string;
  /** The account's contact, told about expiring certificates by some CAs. */
  email: string | null;
  /** The DNS server and TSIG key for DNS-01 (wildcards for the sites' hosts); null: HTTP-01 per host. */
  dns: DnsUpdateSettings | null;
}

/** Let's Encrypt's production directory: HTTPS without a certificate of the operator's obtains them here. */
export const LETS_ENCRYPT_DIRECTORY = 'https://acme-v02.api.letsencrypt.org/directory';

/** Wharf's own TLS listener, when `WHARF_HTTPS_PORT` is set. */
export interface HttpsConfig {
  port: number;
  /** The operator's certificate (PEM chain) and key files, for the console host and the sites host; null without. */
  certFile: string | null;
  keyFile: string | null;
  /** `Strict-Transport-Security` of the answers over HTTPS; null sends none. */
  hsts: string | null;
  /** ACME for the hosts no other certificate covers; null when Wharf serves only the certificates it is given. */
  acme: AcmeConfig | null;
}

export interface Config {
  url: URL;
  sitesUrl: URL;
  /**
   * How a branch's host is made under the sites host: `nested`, `{branch}.{site}.{host}`, or `flat`,
   * `{branch}--{site}.{host}`, which one wildcard certificate `*.{host}` covers for every site.
   */
  branchHosts: BranchHosts;
  port: number;
  /** A second port that serves only sites (the edge), when set. */
  sitesPort: number | null;
  /** Bearer token for /metrics; without it, /metrics answers no one. */
  metricsToken: string | null;
  /** Whether reverse-proxy rules and hooks may reach loopback, private and other non-public addresses. */
  allowPrivateUpstreams: boolean;
  /** The private hosts and networks hook deliveries may reach all the same. */
  hooksAllowedPrivate: PrivateAllowList;
  /** The private hosts and networks reverse-proxy rules may reach all the same. */
  proxyAllowedPrivate: PrivateAllowList;
  host: string;
  /** HTTPS beside HTTP (which then redirects to it); null serves plain HTTP only. */
  https: HttpsConfig | null;
  /** Which proxies in front may name the client (`X-Forwarded-For`); nobody unless the operator says. */
  trustProxy: TrustProxy;
  dataDir: string;
  /** Where release files and logos are kept: `WHARF_STORAGE`. */
  storage: StorageSettings;
  /** What this process runs (`WHARF_ROLE`), and what it shares with other nodes. */
  roles: ClusterSettings['roles'];
  builds: BuildSettings | null;
  redisUrl: ClusterSettings['redisUrl'];
  nodeName: ClusterSettings['nodeName'];
  databaseUrl: string | null;
  users: Map<string, string>;
  /** How people sign in: the password form, code-hosting providers, OpenID Connect, and who may create organizations. */
  signIn: SignInSettings;
  secret: string | null;
  inviteTtlMs: number;
  sessionTtlMs: number;
  /** Days the sites' traffic counts are kept (hours, per-branch hours, the days' lists). */
  trafficRetentionDays: number;
  crashReportDsn: string | null;
  analytics: boolean;
  /** The DNS server asked for custom domains' TXT and A records, as host:port; null asks the system's resolver. */
  dnsServer: string | null;
  /** The addresses custom domains' A and AAAA records name (WHARF_PUBLIC_ADDRESSES); empty: those the sites' hosts have. */
  publicAddresses: string[];
  /** The port the HTTP challenge of a custom domain is fetched from: 80, unless port 80 reaches Wharf translated. */
  ownershipHttpPort: number;
  smtpUrl: string | null;
  /**
   * PEM certificates of private CAs (`WHARF_EXTRA_CA_CERTS`) that every outside service Wharf
   * connects to may be signed by, beside Node's roots: ACME, SMTP, sign-in providers, S3, hook
   * receivers and reverse-proxy upstreams.
   */
  extraCaCerts: string[];
  /** The sender of Wharf's mail; defaults to `wharf@{console host}`. */
  smtpFrom: string;
  logLevel: LogLevel;
  limits: ReleaseLimits;
  deployTtlMs: number;
  uploadTimeouts: UploadTimeouts;
  /** Worker threads making brotli and gzip variants of uploaded files; null: one fewer than the CPUs, at least 1. */
  compressionThreads: number | null;
  /** How long a stopping process lets requests in flight finish before it cuts them. */
  shutdownGraceMs: number;
}

export interface ReleaseLimits {
  /** Compressed bytes of one uploaded archive. */
  archiveBytes: number;
  /** Bytes of all files of one release, uncompressed. */
  releaseBytes: number;
  releaseFiles: number;
}

/** How long the body of an upload (a file, a batch, an archive) may take to arrive. */
export interface UploadTimeouts {
  /** With no byte arriving while Wharf waits for one. */
  idleMs: number;
  /** From the request's start to the body's last byte. */
  deadlineMs: number;
}

/** A setting Wharf cannot start with: its message names the variable and what to do. */
export class ConfigError extends Error {}

/** The code-hosting providers: OAuth 2 with an API that names the person and their organizations. */
export type CodeHostKind = Exclude<SignInProvider, 'oidc'>;

export interface CodeHostSettings {
  kind: CodeHostKind;
  clientId: string;
  clientSecret: string;
  /** Where people sign in (github.com, a GitHub Enterprise server, a GitLab or a Gitea). */
  baseUrl: URL;
  /** Lowercase organization (GitHub, Gitea) or group paths (GitLab); empty lets anybody with an account in. */
  allowedGroups: string[];
}

export interface OidcSettings {
  issuer: URL;
  clientId: string;
  clientSecret: string;
  scopes: string[];
  /** The button's "Sign in with {name}". */
  name: string;
  /** The claim whose values the allow-list and WHARF_ORG_CREATORS match (`groups` by default), compared ignoring case. */
  groupsClaim: string;
  allowedGroups: string[];
}

/** Who may create organizations: everybody signed in, or these users and groups. */
export type OrgCreators =
  | { everyone: true }
  | { everyone: false; users: { provider: string; login: string }[]; groups: { provider: string; group: string }[] };

export interface SignInSettings {
  /** The user name and password form (WHARF_USERS, or the first `admin`). */
  passwords: boolean;
  codeHosts: Partial<Record<CodeHostKind, CodeHostSettings>>;
  oidc: OidcSettings | null;
  orgCreators: OrgCreators;
}

/** What a Wharf process does: serve the console and the API, serve the sites, run the background work. */
export interface Roles {
  api: boolean;
  edge: boolean;
  worker: boolean;
  /** Runs builds from repositories (when a container runtime is configured). */
  builder: boolean;
}

/** Building from repositories (`WHARF_BUILD_*`); null: builds are off. */
export interface BuildSettings {
  /** The container engine's command: podman or docker, or a path to either. */
  runtime: string;
  /** The containers' network: none, or a mode of the runtime that keeps the host's own addresses out of reach. */
  network: string;
  /** Image references builds may use, `*` for any run of characters. */
  images: string[];
  pull: 'missing' | 'never' | 'always';
  cpus: number;
  memory: string;
  pids: number;
  timeoutMs: number;
  /** Builds of one organization that run at once, across the installation. */
  orgConcurrency: number;
  /** Builds one builder node runs at once. */
  slots: number;
  /** The private hosts and networks repositories may be cloned from (`WHARF_BUILD_ALLOWED_PRIVATE`). */
  allowedPrivate: PrivateAllowList;
}

export interface ClusterSettings {
  roles: Roles;
  /** Redis, for what several nodes must count together (sign-in guesses, form submissions); null on one node. */
  redisUrl: string | null;
  /** How this node names itself to the others (in the nodes table, in logs). */
  nodeName: string | null;
}

/** Where and how Wharf publishes its DNS-01 challenges: `WHARF_ACME_DNS`, parsed. */
export interface DnsUpdateSettings {
  /** The DNS server that takes RFC 2136 updates (the zone's primary). */
  server: { host: string; port: number };
  /** The TSIG key the server allows to update the zone (`allow-update { key ...; }`). */
  key: { name: string; secret: Buffer; algorithm: TsigAlgorithm };
  /** The zone to update; null finds it per name from the server's SOA answer. */
  zone: string | null;
}

/** Where the installation keeps its blobs: the data directory (the default) or an S3-compatible bucket. */
export type StorageSettings = { kind: 'folder' } | ({ kind: 's3' } & S3Location);

/** Where the blobs go: `WHARF_STORAGE=s3://bucket/prefix`, and `WHARF_S3_ENDPOINT` for stores other than AWS. */
export interface S3Location {
  bucket: string;
  /** Keys are stored under it (`prefix/files/ab/…`); '' for the bucket's root. */
  prefix: string;
  /** A store other than AWS (MinIO, Ceph, Garage…), addressed by path rather than by bucket host name. */
  endpoint: URL | null;
  /**
   * How long a call waits for the store: to connect, and in silence once connected (for an answer,
   * or for the next bytes of one); `WHARF_S3_TIMEOUT_SECONDS`.
   */
  timeoutMs: number;
}

type Network = [ipaddr.IPv4 | ipaddr.IPv6, number];

/**
 * The private hosts and networks an operator lets one kind of outbound connection reach (hooks,
 * or reverse-proxy rules), from `WHARF_HOOKS_ALLOWED_PRIVATE` or `WHARF_PROXY_ALLOWED_PRIVATE`.
 */
export interface PrivateAllowList {
  /** The variable it comes from, named in refusals so that an operator knows where to add a host. */
  setting: string;
  /** Host names, lower case, without a trailing dot. */
  names: Set<string>;
  networks: Network[];
}

/**
 * Whether a hop of a request's path is a proxy the operator runs: asked for the socket's address
 * (hop 0), then for each `X-Forwarded-For` entry from the right; the client is the first address
 * not trusted. This is proxy-addr's form, which Fastify takes as `trustProxy`, so the API, the
 * edge and the cluster hand-off decide alike.
 */
export type TrustProxy = (address: string, hop: number) => boolean;
