import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { type ErrorCode, errorCodes } from '@wharf/contract';

/** The parser's errors that mean the client ended its side in the middle of a request's body. */
const BODY_CUT_SHORT = new Set(['HPE_INVALID_EOF_STATE']);

function write(socket: Socket, status: number, body: object) {
  const text = JSON.stringify({ statusCode: status, error: STATUS_CODES[status], ...body });
  socket.write(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(text)}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${text}`,
  );
}

/**
 * Answers what Node's HTTP parser refuses before any handler runs, as Fastify would, except a
 * body cut short: a client that half-closes its connection before the body's end (its size
 * lied, or it gave up) hears `UPLOAD_INCOMPLETE` in Wharf's shape, not a bare 400.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  // An answer already begun on this connection cannot be followed by another.
  const answering = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  if (socket.writable && !answering) {
    if (BODY_CUT_SHORT.has(error.code ?? '')) {
      const code: ErrorCode = 'UPLOAD_INCOMPLETE';
      write(socket, errorCodes[code], { code, message: 'The request body ended before all of it arrived' });
    } else if (error.code === 'HPE_HEADER_OVERFLOW') {
      write(socket, 431, { message: 'Exceeded maximum allowed HTTP header size' });
    } else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      write(socket, 408, { message: 'Client Timeout' });
    } else {
      write(socket, 400, { message: 'Client Error' });
    }
  }
  socket.destroy(error);
}
