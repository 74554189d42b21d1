import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
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

/** Whether a request announced a body: only those can be answered before they end. */
const hasBody = (req: IncomingMessage) =>
  req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';

/**
 * A request answered before its body ended (a refused upload, a post to a site's unknown form)
 * leaves a connection that cannot carry another request until the client sends the rest, which it
 * seldom does once answered: it is ended after the answer, as nginx does, rather than held for its
 * keep-alive time. The answer says so (`Connection: close`), decided as its head goes out: a client
 * told `keep-alive` would send its next request on the connection being closed, and see it hang up.
 */
function endingUnreadBodies(listener: RequestListener): RequestListener {
  return (req, res) => {
    if (hasBody(req)) {
      const writeHead = res.writeHead;
      // Node writes every head through writeHead (an implicit one too); without keep-alive it sends
      // `Connection: close` and ends the socket once the answer is sent.
      res.writeHead = function (this: ServerResponse, ...args: Parameters<typeof writeHead>) {
        if (!req.complete) this.shouldKeepAlive = false;
        return writeHead.apply(this, args);
      } as typeof writeHead;
    }
    listener(req, res);
  };
}

/**
 * An HTTP server as every port of Wharf has it (the main port, the sites port, a cluster worker's):
 * its connections kept as long as above, requests that name two hosts or too long a URL refused
 * before any handler (requestTarget.ts), answers to bodies left unread ending their connection, and the requests Node's parser refuses answered with a
 * code (clientErrors.ts).
 */
export function createHttpServer(listener: RequestListener) {
  const server = createServer(
    { keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS },
    withReadableTarget(endingUnreadBodies(listener)),
  );
  server.on('clientError', answerClientError);
  return server;
}
