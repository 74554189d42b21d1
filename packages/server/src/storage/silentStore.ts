import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';

/**
 * Bounds the silence of a store that is sending an object's bytes: `cut` ends the body once the
 * store has sent nothing for `idleMs` while its reader was waiting for bytes.
 *
 * The HTTP client's own inactivity bound counts every quiet moment of the socket, including the
 * ones the reader asked for: a visitor on a slow line holds a download back (the edge stops
 * reading, Node stops reading the socket), and the bound then cuts the visitor's download. So it
 * is switched off once the body arrives, and silence is counted only while the socket is read.
 */
export function boundStoreSilence(body: Readable, idleMs: number, cut: (silentMs: number) => Error) {
  const socket = (body as Partial<IncomingMessage>).socket;
  if (!socket || body.readableEnded) return;
  socket.setTimeout(0);
  let heardAt = performance.now();
  const heard = () => {
    heardAt = performance.now();
  };
  socket.on('data', heard);
  const silentFor = () => performance.now() - heardAt;
  const watch = setInterval(
    () => {
      // A paused socket is the reader's choice (back-pressure), not the store's silence.
      if (socket.isPaused()) return heard();
      if (silentFor() <= idleMs) return;
      // Timers run before the loop reads its sockets: after this process was held up (a busy
      // CPU, a long collection), bytes the store sent meanwhile are waiting unread. The verdict
      // waits for the loop's next read of them.
      setImmediate(() => {
        const silentMs = silentFor();
        if (silentMs > idleMs && !socket.isPaused()) body.destroy(cut(silentMs));
      });
    },
    Math.max(25, idleMs / 4),
  );
  watch.unref();
  body.once('close', () => {
    clearInterval(watch);
    socket.off('data', heard);
  });
}
