import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Edge } from '../edge/edge.ts';
import type { Lifecycle } from './lifecycle.ts';

const HEALTH_PATH = /^\/(healthz|readyz)(?:\?|$)/;

function sendHealth(req: IncomingMessage, res: ServerResponse, ok: boolean, answer: Record<string, unknown>) {
  const body = JSON.stringify(answer);
  res.writeHead(ok ? 200 : 503, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/**
 * `/healthz` (200 while the process runs) and `/readyz` (200 while it serves and can serve its
 * roles; 503 while it starts or drains, or cannot: see Readiness), for load balancers and service
 * managers; the body tells each role's state and each dependency's. Only on hosts that are not a
 * site's, so a site's own `/healthz` file is never shadowed. Answers whether it answered.
 */
export function answerHealth(req: IncomingMessage, res: ServerResponse, lifecycle: Lifecycle): boolean {
  const match = HEALTH_PATH.exec(req.url ?? '');
  if (!match || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
  if (match[1] === 'healthz') sendHealth(req, res, true, { status: 'alive' });
  else if (lifecycle.phase !== 'serving' || !lifecycle.readiness) {
    sendHealth(req, res, lifecycle.phase === 'serving', { status: lifecycle.phase });
  } else {
    void lifecycle.readiness
      .check()
      .then(({ ready, roles, checks }) =>
        sendHealth(req, res, ready, { status: ready ? 'serving' : 'unavailable', roles, checks }),
      );
  }
  return true;
}

/** The sites port: sites by host name, the health answers for any other host, else the edge's 404. */
export function sitesPortListener(edge: Edge, lifecycle: Lifecycle): RequestListener {
  return lifecycle.requestListener((req, res) => {
    if (edge.handles(req) || !answerHealth(req, res, lifecycle)) edge.handle(req, res);
  });
}
