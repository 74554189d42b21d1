import type { IncomingMessage } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { UploadTimeouts } from '../config/types.ts';
import { type HttpError, httpError } from './errors.ts';

/** How often a body's progress is looked at: a fraction of the idle timeout, so it trips close to it. */
const checkEveryMs = (timeouts: UploadTimeouts) => Math.max(20, Math.min(1000, timeouts.idleMs / 5));

/**
 * Watches the body of one upload as it arrives: a body whose bytes stop coming (no byte for the
 * idle timeout while Wharf waits for one), that takes longer than the deadline, or whose client
 * goes away before its end fails whoever reads it with a clear 4xx. Readers get the body through
 * `body` or register their streams with `guard`, never the request itself: a failure then ends
 * their reading without destroying the connection, so that the answer still reaches the client.
 */
class UploadWatch {
  private failure: HttpError | null = null;
  private readonly guarded = new Set<Readable>();
  private readonly failureListeners = new Set<(error: HttpError) => void>();
  private readonly timer: NodeJS.Timeout;
  private bytesSeen = -1;
  private progressAt = Date.now();

  constructor(
    private readonly raw: IncomingMessage,
    private readonly reply: FastifyReply,
    private readonly timeouts: UploadTimeouts,
  ) {
    const startedAt = Date.now();
    this.timer = setInterval(() => this.check(startedAt), checkEveryMs(timeouts));
    this.timer.unref();
    raw.once('end', () => this.stop());
    // The client went away (or half-closed) before the body's end: what came is not the whole.
    raw.once('close', () => {
      if (!raw.complete) this.fail(httpError('UPLOAD_INCOMPLETE', 'The request body ended before all of it arrived'));
      this.stop();
    });
    reply.raw.once('close', () => this.stop());
  }

  private check(startedAt: number) {
    if (this.raw.complete) return this.stop();
    const now = Date.now();
    if (now - startedAt > this.timeouts.deadlineMs) {
      const seconds = Math.round(this.timeouts.deadlineMs / 1000);
      return this.fail(httpError('UPLOAD_TIMEOUT', `The request body took longer than ${seconds} s to arrive`));
    }
    // Bytes read from the connection, whoever reads them; a reader holding back (a slow disk)
    // is Wharf's own pace, not the client's silence.
    const bytes = this.raw.socket?.bytesRead ?? 0;
    if (bytes !== this.bytesSeen || this.raw.readableFlowing !== true) {
      this.bytesSeen = bytes;
      this.progressAt = now;
    } else if (now - this.progressAt > this.timeouts.idleMs) {
      const seconds = Math.round(this.timeouts.idleMs / 1000);
      this.fail(httpError('UPLOAD_TIMEOUT', `No byte of the request body arrived for ${seconds} s`));
    }
  }

  private stop() {
    clearInterval(this.timer);
  }

  private fail(error: HttpError) {
    if (this.failure) return;
    this.failure = error;
    this.stop();
    // What is left of the body is never read: an HTTP/1 connection cannot carry another request
    // (over HTTP/2 only the stream ends, and the header does not belong).
    if (!this.reply.sent && this.raw.httpVersionMajor === 1) this.reply.header('connection', 'close');
    for (const stream of this.guarded) stream.destroy(error);
    for (const listener of this.failureListeners) listener(error);
  }

  /** The body, read through a stream of its own that fails when the upload does. */
  body(payload: Readable): Readable {
    const body = new PassThrough();
    payload.pipe(body);
    // A body that fails on its way (one that does not decode) fails its reader: pipe passes on no error.
    payload.once('error', (error) => body.destroy(error));
    this.guard(body);
    body.once('close', () => payload.unpipe(body));
    return body;
  }

  /** Fails `stream` (a part of the body being read) when the upload fails. */
  guard(stream: Readable) {
    // Its reader may have stopped listening by the time the upload fails (it failed first, or
    // gave up on the body): the failure then ends the stream without crashing the process.
    // Readers still listening get it, and `failed()` tells the route.
    stream.on('error', () => undefined);
    if (this.failure) stream.destroy(this.failure);
    else {
      this.guarded.add(stream);
      stream.once('close', () => this.guarded.delete(stream));
    }
  }

  /** Settles with the upload's failure, never otherwise: raced against a wait on the body. */
  failed(): Promise<never> {
    const failed = new Promise<never>((_resolve, reject) => {
      if (this.failure) reject(this.failure);
      else this.failureListeners.add(reject);
    });
    // Whoever races it sees the failure; an upload that never fails leaves nothing unhandled.
    failed.catch(() => undefined);
    return failed;
  }
}

const watches = new WeakMap<FastifyRequest, UploadWatch>();

/** Starts watching the body of an upload route's request, before anything of it is read. */
export function watchUploadBody(request: FastifyRequest, reply: FastifyReply, timeouts: UploadTimeouts) {
  watches.set(request, new UploadWatch(request.raw, reply, timeouts));
}

/** The watch of an upload's body; every route that reads a body of files is watched. */
export function uploadWatchOf(request: FastifyRequest): UploadWatch {
  const watch = watches.get(request);
  if (!watch) throw new Error(`${request.method} ${request.url} reads an upload body that is not watched`);
  return watch;
}

/** The body of a route of raw bytes (a file, a tar of files), read under the upload's timeouts. */
export const uploadBody = (request: FastifyRequest) => uploadWatchOf(request).body(request.body as Readable);
