import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';

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

function forwardedHeaders(req: IncomingMessage): IncomingHttpHeaders {
  const headers: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(name)) headers[name] = value;
  const peer = req.socket.remoteAddress ?? '';
  const forwardedFor = req.headers['x-forwarded-for'];
  headers['x-forwarded-for'] = forwardedFor ? `${forwardedFor}, ${peer}` : peer;
  headers['x-forwarded-proto'] ??= (req.socket as TLSSocket).encrypted ? 'https' : 'http';
  headers[PEER_ADDRESS_HEADER] = peer;
  return headers;
}

/**
 * Hands the console's and the API's requests that reach a cluster worker to the primary process,
 * which alone runs them (sessions, real-time sockets, uploads), over its local socket.
 */
export class PrimaryForwarder {
  private readonly agent: http.Agent;

  constructor(private readonly socketPath: string) {
    this.agent = new http.Agent({ keepAlive: true });
  }

  request(req: IncomingMessage, res: ServerResponse) {
    const upstream = http.request(
      {
        agent: this.agent,
        socketPath: this.socketPath,
        method: req.method,
        path: req.url,
        headers: forwardedHeaders(req),
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
      const body = JSON.stringify({ statusCode: 502, error: 'Bad Gateway', message: 'Wharf is restarting; try again' });
      res.writeHead(502, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
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
    const headers = forwardedHeaders(req);
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
