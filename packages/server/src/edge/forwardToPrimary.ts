import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { api } from '@wharf/contract';
import type { TrustProxy } from '../config/types.ts';
import { errorJson } from '../http/errorHandler.ts';
import { isPseudoHeader, requestHost } from '../http/requestHost.ts';
import { clientOf } from '../http/trustProxy.ts';
import { closedUnderIt, isIdempotent } from '../outbound/request.ts';
import { connectToPrimary } from './connectToPrimary.ts';

/**
 * The address a forwarded request came from, set by the worker that received it: the primary sees
 * only its local socket. Whatever a client sends under this name is overwritten.
 */
export const PEER_ADDRESS_HEADER = 'x-wharf-peer-address';

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'upgrade']);

/**
 * The headers the primary gets: the client this worker decided on under the operator's rule is
 * the only forwarded address, and the protocol and host are the ones it decided on too; whatever
 * the client sent under these names is replaced.
 */
function forwardedHeaders(req: IncomingMessage, trust: TrustProxy): IncomingHttpHeaders {
  const headers: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(req.headers))
    if (!HOP_BY_HOP.has(name) && !isPseudoHeader(name)) headers[name] = value;
  // An HTTP/2 client names the host in `:authority` only; the primary speaks HTTP/1.1 and reads Host.
  headers.host = requestHost(req);
  const client = clientOf(req, trust);
  headers['x-forwarded-for'] = client.address;
  headers['x-forwarded-proto'] = client.protocol;
  if (client.host) headers['x-forwarded-host'] = client.host;
  else delete headers['x-forwarded-host'];
  headers[PEER_ADDRESS_HEADER] = req.socket.remoteAddress ?? '';
  return headers;
}

/**
 * How long an idle connection to the primary is kept for reuse: far less than the primary keeps
 * it (KEEP_ALIVE_TIMEOUT_MS, 75 s), so the worker lets it go first and never sends a request on a
 * connection the primary is closing. A new connection over the local socket costs next to nothing.
 */
export const IDLE_TO_PRIMARY_MS = 4_000;

/**
 * A request that can be handed over again after its connection was closed under it: idempotent,
 * and read to its end without a byte of body (a body is read once, as it streams, and is gone).
 */
function canHandOverAgain(req: IncomingMessage, bodyBytes: number) {
  return isIdempotent(req.method ?? '') && req.complete && bodyBytes === 0;
}

/** The answer when the primary cannot be reached: it is stopping. */
function unavailable(res: ServerResponse) {
  const body = errorJson('SERVER_UNAVAILABLE', 'Wharf is restarting; try again');
  res.writeHead(503, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'retry-after': '1',
  });
  res.end(body);
}

/** A contract path as a pattern of the request's target, query allowed. */
const pathPattern = (path: string) => new RegExp(`^${path.replace(/:[A-Za-z]+/g, '[^/?]+')}(?:\\?|$)`);

/**
 * Requests whose answer is the whole node's, from counts its workers send the primary every
 * second: the metrics, and a site's traffic (which writes them first).
 */
const NODE_WIDE = [
  pathPattern('/metrics'),
  pathPattern(api.getSiteTraffic.path),
  pathPattern(api.getSiteTrafficSummary.path),
];

/** Whether a cluster worker hands this request to its primary rather than answering it. */
export const servedByPrimary = (req: IncomingMessage) => NODE_WIDE.some((pattern) => pattern.test(req.url ?? ''));

/** Keeps connections to the primary for reuse, and opens new ones with `connectToPrimary`. */
class PrimaryAgent extends http.Agent {
  constructor(private readonly socketPath: string) {
    super({ keepAlive: true, timeout: IDLE_TO_PRIMARY_MS });
  }

  override createConnection(_options: unknown, connected?: (error: Error | null, socket: Duplex) => void) {
    connectToPrimary(this.socketPath, IDLE_TO_PRIMARY_MS, (error, socket) => connected?.(error, socket));
    return undefined;
  }
}

/** Hands the node-wide requests that reach a cluster worker to the primary process, over its local socket. */
export class PrimaryForwarder {
  private readonly agent: PrimaryAgent;

  constructor(
    private readonly socketPath: string,
    private readonly trust: TrustProxy,
    private readonly log: { warn(details: Record<string, unknown>, message: string): void },
  ) {
    this.agent = new PrimaryAgent(socketPath);
  }

  request(req: IncomingMessage, res: ServerResponse) {
    this.handOver(req, res, true);
  }

  /**
   * Sends the request to the primary and its answer back. `mayRepeat`: a bodiless idempotent
   * request whose reused connection is closed under it goes once more on a new one (the idle
   * ones, of the same age, go too) rather than failing with 503.
   */
  private handOver(req: IncomingMessage, res: ServerResponse, mayRepeat: boolean) {
    let bodyBytes = 0;
    const upstream = http.request(
      {
        agent: this.agent,
        socketPath: this.socketPath,
        method: req.method,
        path: req.url,
        headers: forwardedHeaders(req, this.trust),
      },
      (answer) => {
        const headers: IncomingHttpHeaders = {};
        for (const [name, value] of Object.entries(answer.headers)) if (!HOP_BY_HOP.has(name)) headers[name] = value;
        res.writeHead(answer.statusCode ?? 502, headers);
        answer.pipe(res);
        answer.on('error', () => res.destroy());
        // Answered before the body was all sent (a refused upload): the rest is not the primary's
        // to read, and its connection, mid-request, can carry no other (the worker's server drops
        // the rest; see httpServer.ts).
        answer.on('end', () => {
          if (req.complete) return;
          req.unpipe(upstream);
          upstream.destroy();
        });
      },
    );
    let clientGone = false;
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      // Cut mid-answer: so is the client's, which must not take half an answer for a whole one.
      if (res.headersSent) {
        if (!res.writableEnded) res.destroy();
        return;
      }
      if (clientGone) return;
      if (mayRepeat && closedUnderIt(error, upstream.reusedSocket) && canHandOverAgain(req, bodyBytes)) {
        this.dropIdleConnections();
        return this.handOver(req, res, false);
      }
      this.log.warn({ err: error, method: req.method, url: req.url }, 'could not hand a request over to the primary');
      unavailable(res);
    });
    res.on('close', () => {
      if (res.writableFinished) return;
      clientGone = true;
      upstream.destroy();
    });
    // The second hand-over is of a request read to its end without a body: there is nothing to pipe.
    if (!mayRepeat) return void upstream.end();
    req.on('data', (chunk: Buffer) => {
      bodyBytes += chunk.length;
    });
    req.pipe(upstream);
  }

  private dropIdleConnections() {
    for (const sockets of Object.values(this.agent.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
  }

  close() {
    this.agent.destroy();
  }
}
