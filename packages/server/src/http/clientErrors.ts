import type { Duplex } from 'node:stream';
import { type ErrorCode, errorCodes } from '@wharf/contract';
import { errorJson } from './errorHandler.ts';
import { URL_LIMIT } from './requestTarget.ts';

/** The start of a request line: a method and a space. */
const REQUEST_LINE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ /;

/**
 * Whether a request head Node's parser found too large (over 16 KB) was too large because of its
 * URL: the part of the request that overflowed starts with a request line longer than the URL
 * limit, or with a request line that does not end in it at all.
 */
function urlOverflowed(packet: Buffer | undefined) {
  if (!packet) return false;
  const head = packet.subarray(0, URL_LIMIT + 64).toString('latin1');
  const lineEnd = head.indexOf('\r\n');
  return REQUEST_LINE.test(head) && (lineEnd === -1 || lineEnd > URL_LIMIT);
}

/** The parser's errors that mean the client ended its side in the middle of a request's body. */
const BODY_CUT_SHORT = new Set(['HPE_INVALID_EOF_STATE']);

function codeOf(error: NodeJS.ErrnoException & { rawPacket?: Buffer }): ErrorCode {
  // Its size lied, or it gave up: not a malformed request but an incomplete upload.
  if (BODY_CUT_SHORT.has(error.code ?? '')) return 'UPLOAD_INCOMPLETE';
  if (error.code === 'HPE_HEADER_OVERFLOW')
    return urlOverflowed(error.rawPacket) ? 'URL_TOO_LONG' : 'HEADERS_TOO_LARGE';
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return 'REQUEST_TIMEOUT';
  return 'REQUEST_MALFORMED';
}

const MESSAGES: Partial<Record<ErrorCode, string>> = {
  URL_TOO_LONG: `The URL is longer than ${URL_LIMIT} characters`,
  HEADERS_TOO_LARGE: 'The request headers are larger than 16 KB',
  REQUEST_TIMEOUT: 'The request did not arrive in time',
  REQUEST_MALFORMED: 'The request is not valid HTTP',
  UPLOAD_INCOMPLETE: 'The request body ended before all of it arrived',
};

/**
 * The answer to a request Node's parser refused before any handler saw it (every server's
 * `clientError`): a URL over the limit is 414 as nginx answers it, larger headers 431, a timeout
 * 408, a body cut short 400 `UPLOAD_INCOMPLETE`, anything else 400, each with its code; the connection is closed after it.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex) {
  // A reset connection, or one already answered and closed: nothing can be sent.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const code = codeOf(error);
  const status = errorCodes[code];
  const body = errorJson(code, MESSAGES[code] ?? code);
  // An answer already begun on this connection cannot be followed by another.
  const answering = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  if (socket.writable && !answering)
    socket.write(
      `HTTP/1.1 ${status} ${code}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  socket.destroy();
}
