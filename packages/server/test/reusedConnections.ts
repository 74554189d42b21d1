import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Makes a test server close a kept-alive connection at the very moment a client reuses it, as a
 * server does when its idle timeout ends just as a request goes out on the connection: each
 * connection answers its first request, and the next one on it is cut unanswered. Deterministic,
 * where the real race depends on timers.
 */
export function reusedConnectionCutter() {
  const served = new WeakSet<Socket>();
  const state = {
    /** Requests cut so far. */
    cuts: 0,
    /** Whether `req` came on a connection that served one before: then it is cut, and not to be answered. */
    cut(req: IncomingMessage) {
      if (!served.has(req.socket)) {
        served.add(req.socket);
        return false;
      }
      state.cuts++;
      req.socket.destroy();
      return true;
    },
  };
  return state;
}
