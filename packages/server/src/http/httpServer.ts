import { createServer, type IncomingMessage, type RequestListener } from 'node:http';
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

/** How long a connection whose answer went out before its request's body ended waits for the rest. */
const UNREAD_BODY_IDLE_MS = 5_000;

/**
 * A request answered before its body ended (a refused upload, a post to a site's unknown form):
 * the rest of the body is read and dropped, and the connection can then carry the next request,
 * kept as long as any other: the client was told it may wait the keep-alive time before reusing it.
 * Node does so only for a body no one began to read; one a handler read part of, or piped on (a
 * worker's hand-over to its primary), would otherwise stay unread, the connection stuck behind it
 * with the client's next request unparsed until the timeout below reset it. Closing it at once
 * instead would reset it while the client still writes, and the client would see EPIPE or
 * ECONNRESET in place of the answer that says why it was refused. But a client that stops sending
 * the rest must not hold the connection for the whole keep-alive time (it would also hold a
 * server's close that long): it gets a few seconds of silence, as nginx's lingering close gives,
 * and is then closed.
 */
function boundingUnreadBodies(listener: RequestListener): RequestListener {
  return (req, res) => {
    // After Node's own handling of the finished answer, which sets the keep-alive timeout (a socket
    // already gone has nothing to bound).
    if (hasBody(req))
      res.once('finish', () => {
        if (req.complete) return;
        req.socket?.setTimeout(UNREAD_BODY_IDLE_MS);
        req.once('end', () => req.socket?.setTimeout(KEEP_ALIVE_TIMEOUT_MS));
        req.unpipe();
        req.resume();
      });
    listener(req, res);
  };
}

/**
 * An HTTP server as every port of Wharf has it (the main port, the sites port, a cluster worker's):
 * its connections kept as long as above, requests that name two hosts or too long a URL refused
 * before any handler (requestTarget.ts), connections whose answer left a body unread closed after
 * a few idle seconds while it stays unread, and the requests Node's parser refuses answered with a
 * code (clientErrors.ts).
 */
export function createHttpServer(listener: RequestListener) {
  const server = createServer(
    { keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS },
    withReadableTarget(boundingUnreadBodies(listener)),
  );
  server.on('clientError', answerClientError);
  return server;
}
