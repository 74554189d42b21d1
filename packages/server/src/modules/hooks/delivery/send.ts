import type { Database, Db } from '../../../db/schema.ts';
import { MAX_ATTEMPTS, parseRetryAfter } from '../../../jobs/backoff.ts';
import type { JobOutcome, JobSender } from '../../../jobs/runner.ts';
import { newId, now } from '../../../lib/ids.ts';
import { readJson } from '../../../lib/json.ts';
import type { Sealer } from '../../../lib/secrets.ts';
import { isPermanentSmtpError, type Mailer } from '../../../mail/mailer.ts';
import { MAIL_OFF } from '../../../mail/send.ts';
import { type OutboundGuard, OutboundRefused } from '../../../outbound/guard.ts';
import { failureText } from '../../../outbound/outsideServices.ts';
import { API_VERSION } from '../../../version.ts';
import { type Envelope, signatureHeader } from './envelope.ts';
import { type DescribeEnvelope, mailOf, mattermostBody, slackBody } from './messages.ts';
import { type PostResult, post } from './post.ts';

type HookRow = Database['hooks'];

interface Parts {
  db: Db;
  sealer: Sealer;
  outbound: OutboundGuard;
  mailer: Mailer | null;
  describe: DescribeEnvelope;
}

/** One attempt as the Deliveries tab shows it: what went out, what came back, how long it took. */
interface Exchange {
  request: Record<string, unknown>;
  response: Record<string, unknown> | null;
  outcome: JobOutcome;
}

const USER_AGENT = `Wharf-Hooks/${API_VERSION}`;

/** 2xx is done; 429 and 5xx are tried again (after Retry-After when given); anything else is final. */
function outcomeOf(answer: PostResult): JobOutcome {
  if (answer.status >= 200 && answer.status < 300) return { ok: true };
  const retry = answer.status === 429 || answer.status >= 500;
  const retryAfterMs = parseRetryAfter(answer.headers['retry-after']);
  return { ok: false, final: !retry, error: `The receiver answered ${answer.status}`, retryAfterMs };
}

/** A failure before any answer: a refused address is final, a network error or a timeout is not. */
function failureOf(error: unknown): JobOutcome {
  if (error instanceof OutboundRefused)
    return {
      ok: false,
      final: true,
      error: `Refused to connect: ${error.message} (WHARF_ALLOW_PRIVATE_UPSTREAMS is off)`,
    };
  const name = (error as Error).name;
  if (name === 'TimeoutError' || name === 'AbortError')
    return { ok: false, final: false, error: 'No answer within 10 seconds' };
  return { ok: false, final: false, error: failureText(error) };
}

async function postTo(guard: OutboundGuard, url: string, headers: Record<string, string>, body: string) {
  const request = { method: 'POST', url, headers, body };
  try {
    const answer = await post(guard, new URL(url), headers, body);
    return { request, response: answer as unknown as Record<string, unknown>, outcome: outcomeOf(answer) };
  } catch (error) {
    return { request, response: null, outcome: failureOf(error) };
  }
}

async function exchange(parts: Parts, hook: HookRow, envelope: Envelope, deliveryId: string): Promise<Exchange> {
  const config = readJson<{ url?: string; to?: string; secret?: string }>(hook.config);
  if (hook.type === 'web') {
    const body = JSON.stringify(envelope);
    const secret = parts.sealer.open(config.secret ?? '');
    const headers = {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'x-wharf-event': envelope.event,
      'x-wharf-delivery': deliveryId,
      'x-wharf-signature': signatureHeader(secret, body, Math.floor(Date.now() / 1000)),
    };
    return postTo(parts.outbound, config.url ?? '', headers, body);
  }
  const message = await parts.describe(envelope);
  if (hook.type === 'slack' || hook.type === 'mattermost') {
    const body = hook.type === 'slack' ? slackBody(message) : mattermostBody(message);
    const headers = { 'content-type': 'application/json', 'user-agent': USER_AGENT };
    return postTo(parts.outbound, config.url ?? '', headers, body);
  }
  const mail = { to: config.to ?? '', ...mailOf(message, envelope) };
  if (!parts.mailer)
    return {
      request: mail,
      response: null,
      outcome: { ok: false, final: true, error: MAIL_OFF },
    };
  try {
    const receipt = await parts.mailer.send(mail);
    return { request: mail, response: { ...receipt }, outcome: { ok: true } };
  } catch (error) {
    const outcome: JobOutcome = { ok: false, final: isPermanentSmtpError(error), error: failureText(error) };
    return { request: mail, response: null, outcome };
  }
}

/** Sends a hook job once and records the attempt as a delivery row. */
export function hookSender(parts: Parts): JobSender {
  return async (job, attempt) => {
    const hook = await parts.db
      .selectFrom('hooks')
      .selectAll()
      .where('id', '=', job.hook_id ?? '')
      .executeTakeFirst();
    if (!hook) return { ok: false, final: true, error: 'The hook was deleted' };
    const envelope = readJson<Envelope>(job.payload);
    const id = newId();
    const started = performance.now();
    const { request, response, outcome } = await exchange(parts, hook, envelope, id);
    const data = {
      event: envelope.event,
      eventId: envelope.id,
      attempt,
      request,
      response,
      durationMs: Math.round(performance.now() - started),
      error: outcome.ok ? null : outcome.error,
      // The last attempt of its job: no retry follows.
      final: outcome.ok || outcome.final || attempt >= MAX_ATTEMPTS,
    };
    await parts.db
      .insertInto('hook_deliveries')
      .values({
        id,
        hook_id: hook.id,
        event_id: envelope.id,
        success: outcome.ok ? 1 : 0,
        type: envelope.event,
        data: JSON.stringify(data),
        date: now(),
        job_id: job.id,
        attempt,
      })
      .execute();
    return outcome;
  };
}
