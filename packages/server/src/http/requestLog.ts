import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/**
 * One log line per request, once it is answered: the request (method, path, host, client), its
 * status and its time, with the `reqId` that ties it to anything else logged while it ran.
 * Fastify's own writes two at `info` (one as the request comes in, one as it is answered), which
 * doubles a busy installation's log; the first is kept at `debug`.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(request: FastifyRequest) {
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    const line = { req: request, res: reply, responseTime: Math.round(reply.elapsedTime * 10) / 10 };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
