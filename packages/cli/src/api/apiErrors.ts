import { type ErrorCode, errorCodes } from '@wharf/contract/upload';

/**
 * The server answered, and said no: its status, and the code and message of its
 * `{ statusCode, code, error, message }`. The CLI decides by the code, never by the text.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    /** Null when something other than Wharf answered (a proxy in front of it, say). */
    readonly code: ErrorCode | null,
    message: string,
    /** The path asked, e.g. `/api/v1/sites/abc/deploys`. */
    readonly path: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** No answer at all, after every retry: connection refused, reset, DNS, TLS. */
export class NetworkError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'NetworkError';
  }
}

/** A file to upload changed on disk after it was read, so its bytes no longer match its hash. */
export class FileChangedError extends Error {
  constructor() {
    super('The file changed while it was being uploaded');
    this.name = 'FileChangedError';
  }
}

/** The code and message of an error answer: the server's own when it sent its JSON, else the HTTP status line. */
export function readErrorAnswer(status: number, statusText: string, text: string) {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: a proxy in front of Wharf (nginx, a load balancer) answered with its own page.
  }
  const statusLine = `HTTP ${status}${statusText ? ` ${statusText}` : ''}`;
  if (typeof body !== 'object' || body === null) return { code: null, message: statusLine };
  const { code, message } = body as { code?: unknown; message?: unknown };
  return {
    code: typeof code === 'string' && Object.hasOwn(errorCodes, code) ? (code as ErrorCode) : null,
    message: typeof message === 'string' && message ? message : statusLine,
  };
}

/** Why fetch failed, in the words of the system call underneath (`connect ECONNREFUSED 127.0.0.1:8080`). */
export function causeOf(error: unknown): string {
  let current = error as { message?: string; cause?: unknown } | undefined;
  while (current?.cause) current = current.cause as typeof current;
  return current?.message ?? String(error);
}
