import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { NodeMetrics } from './nodeMetrics.ts';

/** The `route` of requests no route matched (the console's pages, unknown paths): never the path itself. */
const UNMATCHED = '(unmatched)';

/** `2xx`, `4xx`…: a handful of series per route rather than one per status. */
const statusClass = (status: number) => `${Math.floor(status / 100)}xx`;

/** Times a site request from its arrival to the end of its answer (or of its connection). */
export type SiteRequestTimer = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Times every request Fastify answers, by its route's pattern (`/api/v1/sites/:siteId`): the
 * labels stay a bounded set whatever the paths asked. Methods are bounded too: Node's parser
 * refuses a method it does not know.
 */
export function timeApiRequests(fastify: FastifyInstance, metrics: NodeMetrics) {
  fastify.addHook('onResponse', async (request, reply) => {
    const labels = {
      route: request.routeOptions.url ?? UNMATCHED,
      method: request.method,
      status: statusClass(reply.statusCode),
    };
    metrics.requests.observe(labels, reply.elapsedTime / 1000);
  });
}

/** Times the edge's requests under route `site` (one route for every site: sites come and go). */
export function siteRequestTimer(metrics: NodeMetrics): SiteRequestTimer {
  return (req, res) => {
    const end = metrics.requests.startTimer();
    res.once('close', () => end({ route: 'site', method: req.method, status: statusClass(res.statusCode) }));
  };
}
