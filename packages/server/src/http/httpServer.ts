import { createServer, type RequestListener } from 'node:http';
import { answerClientError } from './clientErrors.ts';
import { withReadableTarget } from './requestTarget.ts';

/**
 * How long a connection waits for its next request: nginx's keepalive_timeout. It must be longer
 * than any client keeps an idle connection for reuse, or the server closes one just as a request
 * goes out on it and the client sees a reset: load balancers and nginx's upstream connections
 * keep theirs 60 s, Wharf's own outbound agents 4 s. Clients that read the `Keep-Alive: timeout=75`
 * hint (Node, undici) stop reusing a connection a second before it.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 75_000;

/**
 * An HTTP server as every port of Wharf has it (the main port, the sites port, a cluster worker's):
 * its connections kept as long as above, requests that name two hosts or too long a URL refused
 * before any handler (requestTarget.ts), and the requests Node's parser refuses answered with a
 * code (clientErrors.ts).
 */
export function createHttpServer(listener: RequestListener) {
  const server = createServer({ keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS }, withReadableTarget(listener));
  server.on('clientError', answerClientError);
  return server;
}
