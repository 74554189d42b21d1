import type { IncomingMessage } from 'node:http';
import { buffer } from 'node:stream/consumers';

/**
 * An answer whose connection was cut after its head: the server sent a status, then stopped
 * before the body was whole (a worker killed mid-download, a store that went silent midway).
 */
export class AnswerCut extends Error {
  readonly code = 'ANSWER_CUT';

  constructor(
    readonly status: number,
    cause: unknown,
  ) {
    super(`the answer (status ${status}) was cut before its body was whole`, { cause });
  }
}

/**
 * The whole body of an answer, or AnswerCut when its connection ends early. Listening for 'end'
 * alone waits for good on a cut answer: Node then emits neither 'end' nor, to an answer without an
 * 'error' listener, 'error' (see `onError` in Node's _http_incoming.js).
 */
export async function wholeBody(response: IncomingMessage): Promise<Buffer> {
  try {
    return await buffer(response);
  } catch (error) {
    throw new AnswerCut(response.statusCode ?? 0, error);
  }
}
