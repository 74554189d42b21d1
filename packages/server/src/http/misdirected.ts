import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorCode } from '@wharf/contract';

const CODE: ErrorCode = 'MISDIRECTED_REQUEST';

/** `/metrics` is every node's, whatever its roles: Prometheus scrapes the edges too. */
export const servedByEveryNode = (req: IncomingMessage) => /^\/metrics(?:\?|$)/.test(req.url ?? '');

/**
 * 421 for a request this node's roles (`WHARF_ROLE`) do not serve: a load balancer that sends
 * sites to an API node, or the console to an edge node, is told so plainly.
 */
export function misdirected(res: ServerResponse, what: 'sites' | 'the console and the API') {
  const body = JSON.stringify({
    statusCode: 421,
    code: CODE,
    error: 'Misdirected Request',
    message: `This Wharf node does not serve ${what} (WHARF_ROLE)`,
  });
  res.writeHead(421, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
