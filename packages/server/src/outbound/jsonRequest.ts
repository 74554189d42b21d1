import type { OutboundGuard } from './guard.ts';
import { readKept, sendOutbound } from './request.ts';

const ANSWER_TIMEOUT_MS = 10_000;
/** Kept of an answer: an API's JSON about one thing, never a page of them. */
const KEPT_BYTES = 64 * 1024;

export interface JsonAnswer {
  status: number;
  /** The answer parsed, or its text when it is not JSON (an error page), or null when empty. */
  body: unknown;
  retryAfter: string | null;
}

/**
 * Sends a JSON body to an API through the outbound guard and reads its JSON answer (the first
 * 64 KB); fails on a refused address, a network error, or 10 s without a whole answer. Redirects
 * are not followed.
 */
export function requestJson(
  guard: OutboundGuard,
  method: string,
  url: URL,
  headers: Record<string, string>,
  body: unknown,
): Promise<JsonAnswer> {
  const text = JSON.stringify(body);
  return sendOutbound(guard, {
    url,
    method,
    headers: {
      ...headers,
      accept: headers.accept ?? 'application/json',
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(text)),
    },
    body: text,
    signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS),
  }).then(async (res) => {
    const answer = (await readKept(res, KEPT_BYTES)).toString('utf8');
    return { status: res.statusCode ?? 0, body: parsed(answer), retryAfter: res.headers['retry-after'] ?? null };
  });
}

function parsed(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
