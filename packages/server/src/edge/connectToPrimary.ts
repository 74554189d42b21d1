import { connect, type Socket } from 'node:net';

const FIRST_RETRY_MS = 5;
const LONGEST_RETRY_MS = 200;

/**
 * Connects to the primary's local socket, waiting while the primary is too busy to take new
 * connections. Over TCP a full queue of connections not yet taken makes the client send its SYN
 * again later; a local socket refuses at once instead (EAGAIN). The primary is then busy (a long
 * task, a pause to collect garbage, many requests handed over at once), not gone, and nothing of
 * the request has been sent: any request, a POST too, waits for it as it would in that queue,
 * for as long as its client waits. A refusal of another kind (no primary listening: it is
 * stopping) fails at once.
 */
export function connectToPrimary(
  path: string,
  idleMs: number,
  connected: (error: Error | null, socket: Socket) => void,
) {
  const attempt = (retryMs: number) => {
    const socket = connect({ path, timeout: idleMs });
    const refused = (error: NodeJS.ErrnoException) => {
      socket.destroy();
      if (error.code !== 'EAGAIN') return connected(error, socket);
      setTimeout(() => attempt(Math.min(retryMs * 2, LONGEST_RETRY_MS)), retryMs);
    };
    socket.once('error', refused);
    socket.once('connect', () => {
      socket.off('error', refused);
      connected(null, socket);
    });
  };
  attempt(FIRST_RETRY_MS);
}
