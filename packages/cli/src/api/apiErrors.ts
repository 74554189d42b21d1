/** The server answered, and said no: its status and the message of its `{ statusCode, error, message }`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The path asked, e.g. `/api/v1/sites/abc/deploys`: a 404 means one thing on a site, another on a deploy. */
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

/** The message of an error answer: the server's own when it sent JSON, else the HTTP status line. */
export function messageOfAnswer(status: number, statusText: string, text: string): string {
  try {
    const body = JSON.parse(text) as { message?: unknown };
    if (typeof body.message === 'string' && body.message) return body.message;
  } catch {
    // Not JSON: a proxy in front of Wharf (nginx, a load balancer) answered with its own page.
  }
  return `HTTP ${status}${statusText ? ` ${statusText}` : ''}`;
}

/** Why fetch failed, in the words of the system call underneath (`connect ECONNREFUSED 127.0.0.1:8080`). */
export function causeOf(error: unknown): string {
  let current = error as { message?: string; cause?: unknown } | undefined;
  while (current?.cause) current = current.cause as typeof current;
  return current?.message ?? String(error);
}
