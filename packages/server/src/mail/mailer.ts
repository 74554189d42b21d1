import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../config/types.ts';
import { trustedRoots } from '../outbound/outsideServices.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
}

/** What the SMTP server said: recorded with each attempt. */
export interface MailReceipt {
  messageId: string;
  response: string;
}

/** An SMTP error the server gave for good (5xx), as opposed to one worth retrying (4xx, network). */
export function isPermanentSmtpError(error: unknown): boolean {
  const code = (error as { responseCode?: number }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

// Like hook deliveries: an attempt that takes longer than this fails and is retried later.
const TIMEOUT_MS = 10_000;

/** Sends Wharf's mail through the operator's SMTP server (`SMTP_URL`, `SMTP_FROM`). */
export class Mailer {
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
    extraCaCerts: readonly string[],
  ) {
    const ca = trustedRoots(extraCaCerts);
    this.transport = nodemailer.createTransport({
      url: smtpUrl,
      connectionTimeout: TIMEOUT_MS,
      greetingTimeout: TIMEOUT_MS,
      socketTimeout: TIMEOUT_MS,
      // A server on a private CA (smtps://, or STARTTLS on smtp://) is checked against the operator's roots too.
      ...(ca ? { tls: { ca } } : {}),
    });
  }

  async send(mail: Mail): Promise<MailReceipt> {
    const info = await this.transport.sendMail({ from: this.from, ...mail });
    return { messageId: info.messageId, response: info.response ?? '' };
  }

  close() {
    this.transport.close();
  }
}

/** The mailer when the operator configured SMTP, else null: mail is off. */
export function mailerFor(config: Pick<Config, 'smtpUrl' | 'smtpFrom' | 'extraCaCerts'>): Mailer | null {
  return config.smtpUrl ? new Mailer(config.smtpUrl, config.smtpFrom, config.extraCaCerts) : null;
}
