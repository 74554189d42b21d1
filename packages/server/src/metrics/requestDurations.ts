import type { FastifyInstance } from 'fastify';
import type { NodeMetrics } from './nodeMetrics.ts';

/** The `route` of requests no route matched (the console's pages, unknown paths): never the path itself. */
const UNMATCHED = '(unmatched)';

/** `2xx`, `4xx`…: a handful of series per route rather than one per status. */
const statusClass = (status: number) => `${Math.floor(status / 100)}xx`;

/**
 * Records a site request's time, from `startedAt` (`performance.now()` at its arrival) to now, the
 * end of its answer: the edge calls it once the answer is handed to the socket, or sent in full.
 */
export type SiteRequestTimer = (method: string | undefined, status: number, startedAt: number) => void;

/**
 * Times every request Fastify answers, by its route's pattern (`/api/v1/sites/:siteId`): the
 * labels stay a bounded set whatever the paths asked. Methods are bounded too: Node's parser
 * refuses a method it does not know.
 */
export function timeApiRequests(fastify: FastifyInstance, metrics: NodeMetrics) {
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? UNMATCHED;
    metrics.requests.observe(route, request.method, statusClass(reply.statusCode), reply.elapsedTime / 1000);
    done();
  });
}

/** Times the edge's requests under route `site` (one route for every site: sites come and go). */
export function siteRequestTimer(metrics: NodeMetrics): SiteRequestTimer {
  return (method = 'GET', status, startedAt) => {
    metrics.requests.observe('site', method, statusClass(status), (performance.now() - startedAt) / 1000);
  };
}
