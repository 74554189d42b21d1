import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { Config } from '../config.ts';
import type { Db } from '../db/schema.ts';
import { FORMS_PREFIX, FormReceiver } from './forms.ts';
import { hostName, parseHost } from './hosts.ts';
import { ManifestCache } from './manifests.ts';
import { SiteMetrics } from './metrics.ts';
import { sendPage } from './pages.ts';
import { PasswordGate } from './passwords.ts';
import { matchRedirect, proxy, sendFileRule, upstreamUrl } from './redirects.ts';
import { normalisePath, resolveFile } from './resolvePath.ts';
import { FileResponder } from './respond.ts';
import { RoutingTable } from './routingTable.ts';
import { RoutingSync } from './sync.ts';

/** Serves every branch of every site by host name: routing, files, redirects, passwords, forms. */
export class Edge {
  readonly table = new RoutingTable();
  readonly sync: RoutingSync;
  readonly metrics = new SiteMetrics();
  private readonly manifests: ManifestCache;
  private readonly responder: FileResponder;
  private readonly gate = new PasswordGate();
  private readonly forms: FormReceiver;
  private readonly sitesHost: string;
  private readonly consoleHost: string;
  /** Other processes serving sites from the same database (cluster workers), told to catch up too. */
  private readonly peers: (() => Promise<void>)[] = [];

  constructor(db: Db, config: Config, pathOfBlob: (key: string) => string) {
    this.sync = new RoutingSync(db, this.table);
    this.manifests = new ManifestCache(db);
    this.responder = new FileResponder(pathOfBlob);
    this.forms = new FormReceiver(db);
    this.sitesHost = config.sitesUrl.hostname;
    this.consoleHost = config.url.hostname;
  }

  addPeer(refresh: () => Promise<void>) {
    this.peers.push(refresh);
  }

  /** Reads the changes committed so far into this process's routing table and its peers'. */
  async refreshEverywhere() {
    await Promise.all([this.sync.refresh(), ...this.peers.map((refresh) => refresh())]);
  }

  /** Whether a request on the shared port is for a site rather than the console or the API. */
  handles(req: IncomingMessage): boolean {
    const host = hostName(req.headers.host);
    if (!host || host === this.consoleHost) return false;
    return host.endsWith(`.${this.sitesHost}`) || this.table.isDomain(host);
  }

  handle(req: IncomingMessage, res: ServerResponse) {
    this.serve(req, res).catch(() => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('Internal error');
      } else res.destroy();
    });
  }

  private async serve(req: IncomingMessage, res: ServerResponse) {
    const host = hostName(req.headers.host);
    const resolved = host ? this.table.resolve(parseHost(host, this.sitesHost)) : null;
    if (!resolved?.branch) return sendPage(res, 404, 'notFound');
    const { site, branch } = resolved;
    res.on('finish', () => this.metrics.record(site.id, res.statusCode, Number(res.getHeader('content-length') ?? 0)));

    const url = req.url ?? '/';
    const queryStart = url.indexOf('?');
    const rawPath = queryStart === -1 ? url : url.slice(0, queryStart);
    const query = queryStart === -1 ? '' : url.slice(queryStart);
    const normalised = normalisePath(rawPath);
    if (!normalised) return sendPage(res, 400, 'badRequest');
    const clientAddress = req.socket.remoteAddress ?? 'unknown';

    if (branch.protection) {
      const verdict = await this.gate.check(req, branch.protection, clientAddress);
      if (verdict === 'limited') return sendPage(res, 429, 'tooManyRequests', { 'retry-after': '60' });
      if (verdict === 'denied') {
        return sendPage(res, 401, 'unauthorized', {
          'www-authenticate': `Basic realm="${site.name}", charset="UTF-8"`,
        });
      }
    }
    if (req.method === 'POST' && normalised.path.startsWith(FORMS_PREFIX)) {
      const formName = normalised.path.slice(FORMS_PREFIX.length);
      return this.forms.receive(req, res, { site, branch, formName, clientAddress });
    }
    const requestPath = `/${normalised.path}${normalised.trailingSlash ? '/' : ''}`;
    const rule = matchRedirect(branch.redirects, requestPath);
    if (rule?.type === 'file') return sendFileRule(req, res, requestPath, rule.config.content, branch.headers);
    if (rule?.type === 'reverse_proxy') {
      const target = upstreamUrl(rule.config.url, rule.config.stripPathPrefix, requestPath, query);
      const proto = (req.socket as TLSSocket).encrypted ? 'https' : 'http';
      return proxy(req, res, { url: target, clientAddress, proto, dropAuthorization: branch.protection !== null });
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-length': '0' });
      return res.end();
    }
    if (!branch.releaseId) return sendPage(res, 404, 'nothingDeployed');
    const manifest = await this.manifests.get(branch.releaseId);
    const resolution = resolveFile(manifest, normalised.path, normalised.trailingSlash, site.spa, query);
    if (resolution.kind === 'redirect') {
      res.writeHead(301, { location: resolution.location, 'content-length': '0' });
      return res.end();
    }
    if (resolution.kind === 'notFound') return sendPage(res, 404, 'notFound');
    await this.responder.send(req, res, resolution.file, resolution.status, branch.headers);
  }
}
