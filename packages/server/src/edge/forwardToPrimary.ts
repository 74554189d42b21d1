import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { errorJson } from '../http/errorHandler.ts';
import { isPseudoHeader, requestHost } from '../http/requestHost.ts';
import { clientOf, type TrustProxy } from '../http/trustProxy.ts';

/**
 * The address a forwarded request came from, set by the worker that received it: the primary sees
 * only its local socket. Whatever a client sends under this name is overwritten.
 */
export const PEER_ADDRESS_HEADER = 'x-wharf-peer-address';

/** The address a request came from, also when a worker forwarded it over the primary's local socket. */
export function peerAddress(req: IncomingMessage): string | undefined {
  if (req.socket.remoteAddress !== undefined) return req.socket.remoteAddress;
  const forwarded = req.headers[PEER_ADDRESS_HEADER];
  return typeof forwarded === 'string' ? forwarded : undefined;
}

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
 * Hands the console's and the API's requests that reach a cluster worker to the primary process,
 * which alone runs them (sessions, real-time sockets, uploads), over its local socket.
 */
export class PrimaryForwarder {
  private readonly agent: http.Agent;

  constructor(
    private readonly socketPath: string,
    private readonly trust: TrustProxy,
  ) {
    this.agent = new http.Agent({ keepAlive: true });
  }

  request(req: IncomingMessage, res: ServerResponse) {
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
      },
    );
    upstream.on('error', () => {
      if (res.headersSent) return res.destroy();
      const body = errorJson('SERVER_UNAVAILABLE', 'Wharf is restarting; try again');
      res.writeHead(503, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
        'retry-after': '1',
      });
      res.end(body);
    });
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  }

  /** Passes an upgrade (the console's real-time WebSocket) through as raw bytes both ways. */
  upgrade(req: IncomingMessage, socket: Socket, head: Buffer) {
    const upstream = connect(this.socketPath);
    const headers = forwardedHeaders(req, this.trust);
    headers.connection = 'Upgrade';
    headers.upgrade = req.headers.upgrade;
    const lines = [`${req.method} ${req.url} HTTP/1.1`];
    for (const [name, value] of Object.entries(headers)) {
      for (const item of Array.isArray(value) ? value : [value]) if (item !== undefined) lines.push(`${name}: ${item}`);
    }
    upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
    if (head.length > 0) upstream.write(head);
    upstream.pipe(socket).pipe(upstream);
    const close = () => {
      upstream.destroy();
      socket.destroy();
    };
    upstream.on('error', close);
    socket.on('error', close);
    upstream.on('close', close);
    socket.on('close', close);
  }

  close() {
    this.agent.destroy();
  }
}
