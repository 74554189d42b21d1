import { MAX_ATTEMPTS } from '../jobs/backoff.ts';
import type { JobSender } from '../jobs/runner.ts';
import type { Sealer } from '../lib/secrets.ts';
import { failureText } from '../outbound/outsideServices.ts';
import { isPermanentSmtpError, type Mailer } from './mailer.ts';
import { openMail } from './queue.ts';

interface MailLog {
  info(details: Record<string, unknown>, message: string): void;
  warn(details: Record<string, unknown>, message: string): void;
}

/** Why a mail job fails for good on a server without SMTP. */
export const MAIL_OFF = 'Mail is off: the server has no SMTP_URL';

/**
 * Sends a mail job once. Without SMTP it fails for good; a 5xx answer fails for good; a 4xx answer
 * or a network error is tried again later (the runner's backoff). The log tells who got what
 * subject and what the SMTP server said, never the body.
 */
export function mailSender(parts: { mailer: Mailer | null; sealer: Sealer; log: MailLog }): JobSender {
  return async (job, attempt) => {
    if (!parts.mailer) {
      parts.log.warn({ job: job.id }, 'mail not sent: mail is off (no SMTP_URL)');
      return { ok: false, final: true, error: MAIL_OFF };
    }
    const mail = openMail(parts.sealer, job);
    const about = { job: job.id, to: mail.to, subject: mail.subject, attempt };
    try {
      const receipt = await parts.mailer.send(mail);
      parts.log.info({ ...about, messageId: receipt.messageId, response: receipt.response }, 'mail sent');
      return { ok: true };
    } catch (error) {
      const final = isPermanentSmtpError(error);
      const message = failureText(error);
      const again = !final && attempt < MAX_ATTEMPTS;
      parts.log.warn(
        { ...about, error: message },
        again ? 'mail not sent, to be tried again' : 'mail not sent, given up',
      );
      return { ok: false, final, error: message };
    }
  };
}
