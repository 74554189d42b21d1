import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { Config, TrustProxy } from '../config/types.ts';
import type { Db } from '../db/schema.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import type { OutboxEvent } from '../events/outbox.ts';
import { requestHost } from '../http/requestHost.ts';
import { clientAddressOf, clientOf } from '../http/trustProxy.ts';
import { HostParser, type ParsedHost } from '../lib/hosts.ts';
import type { SiteRequestTimer } from '../metrics/requestDurations.ts';
import { CHALLENGE_PREFIX } from '../modules/sites/index.ts';
import type { OutboundGuard } from '../outbound/guard.ts';
import { normalRequestPath } from '../releaseRules/index.ts';
import { asciiQuery } from '../releaseRules/normalPath.ts';
import { AnswerHeaders } from './answerHeaders.ts';
import type { EdgeLog } from './edgeLog.ts';
import type { EdgeParts } from './edgeParts.ts';
import { FORMS_PREFIX, FormReceiver, isFormPost } from './forms.ts';
import { mainAddressFor } from './mainAddress.ts';
import { ManifestCache } from './manifests.ts';
import { PasswordGate } from './passwords.ts';
import { PendingVariants, variantsOfBlob } from './pendingVariants.ts';
import { matchRedirect, proxy, sendFileRule, upstreamUrl } from './redirects.ts';
import { ReleaseAddresses, type Resolved } from './releaseAddresses.ts';
import { ReleaseServer } from './releaseServer.ts';
import { ReloadLater } from './reloadLater.ts';
import { normalisePath } from './resolvePath.ts';
import { FileResponder } from './respond.ts';
import { type BranchEntry, RoutingTable, type SiteEntry } from './routingTable.ts';
import {
  type Answer,
  applyRequestHeaders,
  failed,
  headersToWrite,
  movedHostLocation,
  redirectTo,
  refuse,
  type SiteRequest,
  sendEarlyPage,
  sendRequestPage,
  withQuery,
} from './siteAnswers.ts';
import { sitesTouchedBy } from './sync.ts';
import { AnswerCounter, type Answered } from './traffic/answerCounter.ts';

export type { EdgeParts } from './edgeParts.ts';

/** Serves every branch of every site by host name: routing, files, redirects, passwords, forms. */
export class Edge {
  readonly table = new RoutingTable();
  /** Its answers' counts: the sites' totals, and their traffic until written or handed to the primary. */
  readonly counted = new AnswerCounter();
  /** Its routing table is loaded: what the edge role needs to serve (see lifecycle/readiness.ts). */
  loaded = false;
  private readonly manifests: ManifestCache;
  private readonly gate: PasswordGate;
  private readonly answerHeaders = new AnswerHeaders();
  private readonly release: ReleaseServer;
  private readonly releaseAddresses: ReleaseAddresses;
  private readonly forms: FormReceiver;
  /** `.` and the sites host: a site's host name ends with it. */
  private readonly sitesSuffix: string;
  private readonly hosts: HostParser;
  private readonly sitesHost: string;
  private readonly consoleHost: string;
  private readonly trustProxy: TrustProxy;
  private readonly db: Db;
  private servesSites = true;
  private readonly reloadLater: ReloadLater;
  private readonly outbound: OutboundGuard;
  private readonly log: EdgeLog;
  private readonly timeRequest: SiteRequestTimer;
  /** `Strict-Transport-Security` of answers over TLS (null: none), written with each answer's headers. */
  private readonly hsts: string | null;

  constructor(db: Db, config: Config, { blobs, outbound, counters, log, sealer, afterCommit, timeRequest }: EdgeParts) {
    this.log = log;
    this.timeRequest = timeRequest;
    this.hsts = config.https?.hsts ?? null;
    this.db = db;
    this.manifests = new ManifestCache(db);
    this.releaseAddresses = new ReleaseAddresses(db);
    const pending = new PendingVariants(
      (hash) => variantsOfBlob(db, hash),
      (err) => log.error({ err }, 'reading the variants of a blob failed'),
    );
    this.forms = new FormReceiver(db, { sealer, afterCommit }, counters);
    this.gate = new PasswordGate(counters);
    this.sitesSuffix = `.${config.sitesUrl.hostname}`;
    this.sitesHost = config.sitesUrl.hostname;
    this.hosts = new HostParser(this.sitesHost, config.branchHosts);
    this.consoleHost = config.url.hostname;
    this.trustProxy = config.trustProxy;
    this.outbound = outbound;
    this.reloadLater = new ReloadLater((siteIds) => this.reloadSites(siteIds), log);
    this.release = new ReleaseServer({
      gate: this.gate,
      responder: new FileResponder(blobs, log, pending),
      answerHeaders: this.answerHeaders,
      trustProxy: this.trustProxy,
      onlyGetOrHead: (request) => this.onlyGetOrHead(request),
      proxyTo: (request, url) => this.proxyTo(request, url),
    });
  }

  /**
   * For a cluster's primary, which takes no site requests: its workers hold the routing tables, so
   * this process drops its own and follows no changes (10,000 sites are some 10 MB of heap).
   */
  leaveSitesToPeers() {
    this.servesSites = false;
    this.table.clear();
  }

  /** Loads every site; changes from then on arrive as events (`applyEvents`) or reloads. */
  async load() {
    if (this.servesSites) await this.table.loadAll(this.db);
    this.loaded = true;
  }

  /**
   * Reads these sites again from the database into this process's routing table. Those the
   * database was away for are read again later by themselves: the change is not missed.
   */
  async reloadSites(siteIds: string[]) {
    if (!this.servesSites || siteIds.length === 0) return;
    try {
      await this.table.reloadSites(this.db, siteIds);
    } catch (error) {
      if (isDatabaseUnavailable(error)) this.reloadLater.add(siteIds);
      throw error;
    }
  }

  /** Brings this process's routing table up to a batch of outbox events. */
  async applyEvents(events: OutboxEvent[]) {
    const siteIds = sitesTouchedBy(events);
    if (siteIds.length === 0) return;
    await this.reloadSites(siteIds);
  }

  /** Whether a request on the shared port is for a site rather than the console or the API. */
  handles(req: IncomingMessage): boolean {
    const host = this.hosts.parse(requestHost(req))?.name;
    if (!host || host === this.consoleHost) return false;
    return host.endsWith(this.sitesSuffix) || this.table.isDomain(host) || this.isOwnershipChallenge(req, host);
  }

  /**
   * The HTTP challenge of a saved domain not verified yet (CHALLENGE_PREFIX + its token): answering
   * it for any host pointed at Wharf is what lets Wharf see that the domain points here. Any other
   * request for such a domain gets what an unknown host gets.
   */
  private isOwnershipChallenge(req: IncomingMessage, host: string) {
    const token = req.url?.startsWith(CHALLENGE_PREFIX) ? req.url.slice(CHALLENGE_PREFIX.length) : undefined;
    return token !== undefined && this.table.answersChallenge(host, token);
  }

  handle(req: IncomingMessage, res: ServerResponse) {
    const startedAt = performance.now();
    const host = this.hosts.parse(requestHost(req));
    if (host && this.isOwnershipChallenge(req, host.name)) {
      // Checked over plain HTTP (a domain may have no certificate yet): no HSTS to carry.
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : req.url!.slice(CHALLENGE_PREFIX.length));
      return this.timeRequest(req.method, res.statusCode, startedAt);
    }
    const resolved = host ? this.releaseAddresses.resolve(this.table, host.target) : null;
    if (!(resolved instanceof Promise)) return this.answer(req, res, host, resolved, startedAt);
    resolved.then(
      (late) => this.answer(req, res, host, late, startedAt),
      (error) => {
        failed(this.log, req, res, error);
        this.timeRequest(req.method, res.statusCode, startedAt);
      },
    );
  }

  private answer(
    req: IncomingMessage,
    res: ServerResponse,
    host: ParsedHost | null,
    resolved: Resolved,
    startedAt: number,
  ) {
    const hsts = this.hstsFor(req);
    if (!resolved?.branch) {
      sendEarlyPage(res, hsts, resolved?.site.headers ?? [], 404, 'notFound');
      return this.timeRequest(req.method, res.statusCode, startedAt);
    }
    const { site, branch } = resolved;
    const mainAddress = branch === site.mainBranch ? mainAddressFor(site, host!, this.table, this.sitesHost) : null;
    if (mainAddress !== null) {
      const location = movedHostLocation(req, clientOf(req, this.trustProxy).protocol, mainAddress);
      const bytes = redirectTo(res, 301, location, hsts ? [['strict-transport-security', hsts]] : []);
      return this.record({ req, site, branch, path: null, host: null }, 301, bytes, startedAt);
    }
    const request = this.siteRequest(req, res, site, branch, host!.name, hsts);
    if (!request) {
      const bytes = sendEarlyPage(res, hsts, branch.headers, 400, 'badRequest');
      return this.record({ req, site, branch, path: null, host: null }, res.statusCode, bytes, startedAt);
    }
    try {
      // Most answers are ready at once (a cached file); only the others pay for a promise.
      const sent = this.serve(request);
      if (typeof sent === 'number') this.record(request, res.statusCode, sent, startedAt);
      else
        sent.then(
          (bytes) => this.record(request, res.statusCode, bytes, startedAt),
          (error) => this.recordFailure(request, error, startedAt),
        );
    } catch (error) {
      this.recordFailure(request, error, startedAt);
    }
  }

  /** The HSTS an answer to this request carries: over TLS, when the installation sends it. */
  private hstsFor(req: IncomingMessage): string | null {
    return this.hsts !== null && (req.socket as TLSSocket).encrypted ? this.hsts : null;
  }

  /** An answer given (handed to the socket, or sent in full when it streamed): its site's counts, its time. */
  private record(answered: Answered, status: number, bytes: number, startedAt: number) {
    this.counted.count(answered, status, bytes);
    this.timeRequest(answered.req.method, status, startedAt);
  }

  private recordFailure(request: SiteRequest, error: unknown, startedAt: number) {
    const { req, res } = request;
    if (!res.headersSent) applyRequestHeaders(request);
    const { status, bytes } = failed(this.log, req, res, error);
    this.record(request, status, bytes, startedAt);
  }

  /** The request as the edge's answers read it; null when its path is not one a file can have. */
  private siteRequest(
    req: IncomingMessage,
    res: ServerResponse,
    site: SiteEntry,
    branch: BranchEntry,
    host: string,
    hsts: string | null,
  ): SiteRequest | null {
    const url = req.url ?? '/';
    const queryStart = url.indexOf('?');
    const rawPath = queryStart === -1 ? url : url.slice(0, queryStart);
    const query = queryStart === -1 ? '' : asciiQuery(url.slice(queryStart));
    const normalised = normalisePath(rawPath);
    if (!normalised) return null;
    const rulePath = normalRequestPath(rawPath);
    return {
      req,
      res,
      site,
      branch,
      path: normalised.path,
      rawPath,
      rulePath,
      trailingSlash: normalised.trailingSlash,
      query,
      host,
      hsts,
      headers: this.answerHeaders.headersFor(branch, undefined, host, rulePath, hsts),
      headersWritten: false,
    };
  }

  private serve(request: SiteRequest): Answer {
    const { req, branch } = request;
    if (!branch.protection) return this.serveOpen(request);
    const verdict = this.gate.check(req, branch.protection, () => clientAddressOf(req, this.trustProxy));
    if (verdict === 'allowed') return this.serveOpen(request);
    if (typeof verdict === 'string') return refuse(request, verdict);
    return verdict.then((late) => (late === 'allowed' ? this.serveOpen(request) : refuse(request, late)));
  }

  /** Past the password, if any: forms, the console's rules, then the release (its rules, its files). */
  private serveOpen(request: SiteRequest): Answer {
    const { req, res, site, branch, path, rawPath, trailingSlash, query } = request;
    if (req.method === 'POST' && path.startsWith(FORMS_PREFIX) && branch.takesForms) {
      const formName = path.slice(FORMS_PREFIX.length);
      applyRequestHeaders(request);
      return this.forms.receive(req, res, {
        site,
        branch,
        formName,
        clientAddress: clientAddressOf(req, this.trustProxy),
      });
    }
    if (branch.redirects.length > 0) {
      const requestPath = `/${path}${trailingSlash ? '/' : ''}`;
      const rule = matchRedirect(branch.redirects, requestPath);
      // A file rule is a file: it answers GET and HEAD, and 405 to the rest as the release's files do.
      if (rule?.type === 'file')
        return (
          this.onlyGetOrHead(request) ??
          sendFileRule(req, res, requestPath, rule.config.content, headersToWrite(request))
        );
      if (rule?.type === 'reverse_proxy') return this.proxyTo(request, upstreamUrl(rule.config, rawPath, query));
      if (rule?.type === 'redirect')
        return redirectTo(res, rule.config.status, withQuery(rule.config.target, query), headersToWrite(request));
    }
    if (!branch.releaseId) return this.onlyGetOrHead(request) ?? sendRequestPage(request, 404, 'nothingDeployed');
    const manifest = this.manifests.get(branch.releaseId);
    if (manifest instanceof Promise) return manifest.then((loaded) => this.release.serve(request, loaded));
    return this.release.serve(request, manifest);
  }

  /** Streams the request to an upstream (a console rule or a `_redirects` proxy), through the outbound guard. */
  private proxyTo(request: SiteRequest, url: URL) {
    const { req, res, branch, guarded } = request;
    // Set first: the upstream's own header of the same name wins.
    applyRequestHeaders(request);
    const { protocol: proto } = clientOf(req, this.trustProxy);
    // X-Forwarded-For gets this connection's peer appended, as every proxy's does.
    const clientAddress = req.socket.remoteAddress ?? 'unknown';
    // The credential was Wharf's to check, never the upstream's.
    const dropAuthorization = branch.protection !== null || guarded === true;
    return proxy(req, res, { url, clientAddress, proto, dropAuthorization, outbound: this.outbound });
  }

  /**
   * A 405 for methods other than GET and HEAD, which are all files and pages answer; null for those.
   * A form's post to a page of a release (Netlify's way, with a `form-name` field) is a submission.
   */
  private onlyGetOrHead(request: SiteRequest): Answer | null {
    const { req, res, site, branch } = request;
    if (req.method === 'GET' || req.method === 'HEAD') return null;
    applyRequestHeaders(request);
    const refuse = () => {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-length': '0' });
      res.end();
      return 0;
    };
    if (branch.releaseId && branch.takesForms && isFormPost(req)) {
      const clientAddress = clientAddressOf(req, this.trustProxy);
      return this.forms.receiveAtPage(req, res, { site, branch, clientAddress }, refuse);
    }
    return refuse();
  }
}
