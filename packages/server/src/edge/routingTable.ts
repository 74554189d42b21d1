import {
  BASIC_AUTH_USER,
  type Domain,
  type Header,
  patterns,
  type Redirect,
  reservedHeaderReason,
} from '@wharf/contract';
import type { Database, Db } from '../db/schema.ts';
import type { SiteOrDomain } from '../lib/hosts.ts';
import { readJson } from '../lib/json.ts';
import { flatBranchPart } from '../lib/urls.ts';
import { compilePathPattern, type PathPattern } from '../releaseRules/pathPattern.ts';
import { PatternIndex } from '../releaseRules/patternIndex.ts';
import type { HostDirectory } from '../tls/hostDirectory.ts';

/** A password guarding a site or branch; the version changes with every new password. */
/**
 * A password on a branch or a site: HTTP Basic with the one user `user`. The same shape as a
 * release's `Basic-Auth` guard, so that both go through one password gate.
 */
export interface Protection {
  /** User name → scrypt hash of the password. */
  users: ReadonlyMap<string, string>;
  /** Changes with the password: verified credentials and counted guesses belong to one version. */
  version: string;
}

export interface BranchEntry {
  id: string;
  slug: string;
  releaseId: string | null;
  /** The branch's own password, else the site's: a preview may be private while production is public. */
  protection: Protection | null;
  /** Site headers with the branch's overriding those of the same name, as [name, value]: those for every path. */
  headers: [string, string][];
  /** Console headers for some paths only (site's, then branch's); null when there are none. */
  scopedHeaders: PatternIndex<ScopedHeader> | null;
  redirects: Redirect[];
  /** Whether form posts are taken here: a release's own address is a look at it, not the live site. */
  takesForms: boolean;
}

/** A console header with a path pattern (`/assets/*`): it applies where the pattern matches. */
export interface ScopedHeader {
  index: number;
  host: null;
  pattern: PathPattern;
  name: string;
  value: string;
}

export interface SiteEntry {
  id: string;
  name: string;
  spa: boolean;
  prettyUrls: boolean;
  mainBranch: BranchEntry | null;
  branches: Map<string, BranchEntry>;
  /** The site's own headers, for its answers that concern no branch (an unknown branch's 404). */
  headers: [string, string][];
  /** What a release's own address serves with: the site's password and headers, and `noindex`. */
  releaseAddress: Pick<BranchEntry, 'protection' | 'headers' | 'scopedHeaders'>;
  /** Verified domains only: the edge serves no other. */
  domains: Domain[];
  /** The verified primary domain, where the main branch's other addresses redirect; null: none. */
  primaryDomain: string | null;
  /** Saved domains not verified yet whose claim goes on, with the token their HTTP challenge answers. */
  pendingDomains: { name: string; token: string }[];
}

type SiteRow = Database['sites'];
const RELOAD_BATCH = 500;
type BranchRow = Database['branches'];

export function protectionOf(row: {
  password_hash: string | null;
  password_version: string | null;
}): Protection | null {
  if (!row.password_hash) return null;
  return { users: new Map([[BASIC_AUTH_USER, row.password_hash]]), version: row.password_version ?? '' };
}

/** Shared by every branch without headers, so that answers prepared for one serve all of them. */
const NO_HEADERS: [string, string][] = [];

const forEveryPath = (header: Header) => !header.path;

/** A release's own address is for looking at it before or after it is live: search engines keep out. */
const NOT_INDEXED: Header = { name: 'X-Robots-Tag', value: 'noindex' };

/**
 * A site's or a branch's stored headers, less those saved before the contract refused them (a
 * name Wharf sets itself, a value Node cannot write): one of those would break every answer.
 */
function headersOf(stored: string): Header[] {
  return readJson<Header[]>(stored).filter(
    (header) => reservedHeaderReason(header.name) === null && patterns.headerValue.test(header.value),
  );
}

function mergeHeaders(site: Header[], branch: Header[]): [string, string][] {
  const everywhere = [...site, ...branch].filter(forEveryPath);
  if (everywhere.length === 0) return NO_HEADERS;
  const merged = new Map<string, [string, string]>();
  for (const header of everywhere) merged.set(header.name.toLowerCase(), [header.name, header.value]);
  return [...merged.values()];
}

/** The console headers with a path, site's first: a later one of the same name wins where both match. */
function scopedHeadersOf(site: Header[], branch: Header[]): PatternIndex<ScopedHeader> | null {
  const scoped: ScopedHeader[] = [];
  for (const header of [...site, ...branch]) {
    if (forEveryPath(header)) continue;
    const pattern = compilePathPattern(header.path!);
    // The contract admits any path; one that is no pattern (two splats) matches nothing.
    if (typeof pattern !== 'string')
      scoped.push({ index: scoped.length, host: null, pattern, name: header.name, value: header.value });
  }
  return scoped.length > 0 ? new PatternIndex(scoped) : null;
}

/**
 * Only a verified domain is served; one not verified yet answers only its ownership challenge, and
 * one whose claim ended (taken by another site, or expired) answers nothing.
 */
function domainsByOwnership(saved: Domain[]): Pick<SiteEntry, 'domains' | 'pendingDomains' | 'primaryDomain'> {
  const domains: Domain[] = [];
  const pendingDomains: SiteEntry['pendingDomains'] = [];
  for (const domain of saved) {
    if (domain.ownership?.verifiedAt) domains.push(domain);
    else if (domain.ownership && !domain.ownership.ended)
      pendingDomains.push({ name: domain.name, token: domain.ownership.token });
  }
  return { domains, pendingDomains, primaryDomain: domains.find((domain) => domain.primary)?.name ?? null };
}

function toEntry(site: SiteRow, branches: BranchRow[]): SiteEntry {
  const siteHeaders = headersOf(site.headers);
  const siteProtection = protectionOf(site);
  const entries = branches.map(
    (row): BranchEntry => ({
      id: row.id,
      slug: row.slug,
      releaseId: row.release_id,
      protection: protectionOf(row) ?? siteProtection,
      headers: mergeHeaders(siteHeaders, headersOf(row.headers)),
      scopedHeaders: scopedHeadersOf(siteHeaders, headersOf(row.headers)),
      redirects: readJson<Redirect[]>(row.redirects),
      takesForms: true,
    }),
  );
  return {
    id: site.id,
    name: site.name,
    spa: site.spa === 1,
    prettyUrls: site.pretty_urls === 1,
    mainBranch: entries.find((b) => b.id === site.main_branch_id) ?? null,
    // By slug, and by the shortened part of a flat branch host (`flatBranchPart`) too: the slugs
    // are set last, so a shortened part never takes a branch's own slug from it.
    branches: new Map([
      ...entries.map((b) => [flatBranchPart(b.slug, site.name), b] as const),
      ...entries.map((b) => [b.slug, b] as const),
    ]),
    headers: mergeHeaders(siteHeaders, []),
    releaseAddress: {
      protection: siteProtection,
      headers: mergeHeaders(siteHeaders, [NOT_INDEXED]),
      scopedHeaders: scopedHeadersOf(siteHeaders, []),
    },
    ...domainsByOwnership(readJson<Domain[]>(site.domains)),
  };
}

/** Host → site and branch, held in memory and changed site by site as events arrive. */
export class RoutingTable implements HostDirectory {
  private readonly byName = new Map<string, SiteEntry>();
  private readonly byId = new Map<string, SiteEntry>();
  private readonly byDomain = new Map<string, { site: SiteEntry; domain: Domain }>();
  /** Host → token → the site claiming it: several sites may claim one name until one verifies it. */
  private readonly challenges = new Map<string, Map<string, SiteEntry>>();

  get size() {
    return this.byId.size;
  }

  async loadAll(db: Db) {
    const sites = await db.selectFrom('sites').selectAll().execute();
    const branches = await db.selectFrom('branches').selectAll().execute();
    this.putAll(sites, branches);
  }

  /** Reads the sites again (a few hundred per query); those no longer in the database are dropped. */
  async reloadSites(db: Db, siteIds: string[]) {
    for (let i = 0; i < siteIds.length; i += RELOAD_BATCH) {
      const batch = siteIds.slice(i, i + RELOAD_BATCH);
      const sites = await db.selectFrom('sites').selectAll().where('id', 'in', batch).execute();
      const branches = await db.selectFrom('branches').selectAll().where('site_id', 'in', batch).execute();
      const found = new Set(sites.map((site) => site.id));
      for (const siteId of batch) if (!found.has(siteId)) this.remove(siteId);
      this.putAll(sites, branches);
    }
  }

  private putAll(sites: SiteRow[], branches: BranchRow[]) {
    const bySite = new Map<string, BranchRow[]>();
    for (const branch of branches) {
      const list = bySite.get(branch.site_id);
      if (list) list.push(branch);
      else bySite.set(branch.site_id, [branch]);
    }
    for (const site of sites) this.put(toEntry(site, bySite.get(site.id) ?? []));
  }

  clear() {
    this.byName.clear();
    this.byId.clear();
    this.byDomain.clear();
    this.challenges.clear();
  }

  remove(siteId: string) {
    const old = this.byId.get(siteId);
    if (!old) return;
    this.byId.delete(siteId);
    if (this.byName.get(old.name) === old) this.byName.delete(old.name);
    for (const domain of old.domains)
      if (this.byDomain.get(domain.name)?.site === old) this.byDomain.delete(domain.name);
    for (const pending of old.pendingDomains) {
      const tokens = this.challenges.get(pending.name);
      if (tokens?.get(pending.token) === old) tokens.delete(pending.token);
      if (tokens?.size === 0) this.challenges.delete(pending.name);
    }
  }

  private put(entry: SiteEntry) {
    this.remove(entry.id);
    this.byId.set(entry.id, entry);
    this.byName.set(entry.name, entry);
    for (const domain of entry.domains) this.byDomain.set(domain.name, { site: entry, domain });
    for (const { name, token } of entry.pendingDomains) {
      const tokens = this.challenges.get(name) ?? new Map<string, SiteEntry>();
      tokens.set(token, entry);
      this.challenges.set(name, tokens);
    }
  }

  /**
   * Whether a claim of this host not verified yet has this token. A host the table serves (a
   * verified domain, or a branch under one that exposes branches) answers no one's challenge: it
   * reaches Wharf for its holder, which proves nothing about whoever else claims it.
   */
  answersChallenge(host: string, token: string): boolean {
    return this.challenges.get(host)?.has(token) === true && !this.isDomain(host);
  }

  siteNamed(name: string): SiteEntry | undefined {
    return this.byName.get(name);
  }

  /** The site and branch a host asks for; undefined branch when the site has no such branch. */
  resolve(target: SiteOrDomain): { site: SiteEntry; branch: BranchEntry | null } | null {
    if (target.kind === 'site') {
      const site = this.byName.get(target.siteName);
      if (!site) return null;
      return {
        site,
        branch: target.branchSlug === null ? site.mainBranch : (site.branches.get(target.branchSlug) ?? null),
      };
    }
    const direct = this.byDomain.get(target.domain);
    if (direct) return { site: direct.site, branch: direct.site.mainBranch };
    if (target.branchSlug === null) return null;
    const parent = this.byDomain.get(target.domain.slice(target.branchSlug.length + 1));
    if (!parent?.domain.exposeBranches) return null;
    return { site: parent.site, branch: parent.site.branches.get(target.branchSlug) ?? null };
  }

  /** The custom domain a host is served under: the domain itself, or its parent when it exposes branches. */
  domainOf(host: string): Domain | null {
    const direct = this.byDomain.get(host);
    if (direct) return direct.domain;
    const dot = host.indexOf('.');
    const parent = dot > 0 ? this.byDomain.get(host.slice(dot + 1)) : undefined;
    return parent?.domain.exposeBranches ? parent.domain : null;
  }

  /** Every verified custom domain (their certificates, for /metrics). */
  *domains(): Iterable<Domain> {
    for (const { domain } of this.byDomain.values()) yield domain;
  }

  /** Whether a host is a verified domain itself, not a branch under one. */
  isDomainItself(host: string) {
    return this.byDomain.has(host);
  }

  /** Whether a host is served by the edge rather than the console. */
  isDomain(host: string) {
    if (this.byDomain.has(host)) return true;
    const dot = host.indexOf('.');
    return dot > 0 && this.byDomain.get(host.slice(dot + 1))?.domain.exposeBranches === true;
  }
}
