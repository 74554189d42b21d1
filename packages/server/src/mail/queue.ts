import type { Executor } from '../db/schema.ts';
import { enqueueJob, type Job } from '../jobs/queue.ts';
import { readJson } from '../lib/json.ts';
import type { Sealer } from '../lib/secrets.ts';
import type { Mail } from './mailer.ts';

/** A mail job's payload: the whole mail sealed, as it holds secret links and visitors' data. */
export interface MailPayload {
  sealed: string;
}

/** The payload of a mail job: the mail sealed with the installation's secret. */
export function sealMail(sealer: Sealer, mail: Mail): MailPayload {
  return { sealed: sealer.seal(JSON.stringify(mail)) };
}

/** The mail a job holds, opened only to be sent. */
export function openMail(sealer: Sealer, job: Pick<Job, 'payload'>): Mail {
  return JSON.parse(sealer.open(readJson<MailPayload>(job.payload).sealed)) as Mail;
}

/**
 * Queues a mail in the caller's transaction: it leaves only if the change that sends it commits,
 * and the job runner sends it, with retries, through the operator's SMTP server.
 */
export function queueMail(trx: Executor, sealer: Sealer, mail: Mail): Promise<string> {
  return enqueueJob(trx, { kind: 'mail', payload: sealMail(sealer, mail) });
}
