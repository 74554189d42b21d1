import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A message the peer accepted, as it came over the wire, and read simply. */
export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  headers: Record<string, string>;
  /** The text/plain part, decoded, lines ending in LF. */
  text: string;
  /** The text/html part, decoded, or '' when none. */
  html: string;
}

export interface SmtpPeer {
  url: string;
  received: ReceivedMail[];
  /** The answers to give the next messages instead of accepting them (`451`, `550`…), in order. */
  refuseNext(...codes: number[]): void;
  close(): Promise<void>;
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** Headers of one part, unfolded, by lowercase name; and its body. */
function splitPart(part: string): { headers: Record<string, string>; body: string } {
  const end = part.search(/\r?\n\r?\n/);
  const head = end < 0 ? part : part.slice(0, end);
  const body = end < 0 ? '' : part.slice(end).replace(/^\r?\n\r?\n/, '');
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body };
}

/** A part's body decoded, with the wire's CRLF line ends as LF. */
function decodeBody(headers: Record<string, string>, body: string): string {
  const encoding = (headers['content-transfer-encoding'] ?? '').toLowerCase();
  const decoded =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(body)
      : encoding === 'base64'
        ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
        : body;
  return decoded.replace(/\r\n/g, '\n');
}

/** Reads a message of one text part or a multipart/alternative of text and HTML, as nodemailer writes them. */
export function readMessage(raw: string): Pick<ReceivedMail, 'headers' | 'text' | 'html'> {
  const { headers, body } = splitPart(raw);
  const type = headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!boundary) return { headers, text: decodeBody(headers, body), html: '' };
  const parts = body
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((part) => splitPart(part.replace(/^\r?\n/, '')));
  const of = (kind: string) => {
    const part = parts.find((p) => (p.headers['content-type'] ?? '').startsWith(kind));
    return part ? decodeBody(part.headers, part.body).replace(/\r?\n$/, '') : '';
  };
  return { headers, text: of('text/plain'), html: of('text/html') };
}

/**
 * A real SMTP server on 127.0.0.1 (no auth) that keeps what it accepts: plain, or offering STARTTLS
 * with the certificate and key given (and then refusing mail sent without it).
 */
export async function startSmtpPeer(options: { starttls?: { cert: string; key: string } } = {}): Promise<SmtpPeer> {
  const received: ReceivedMail[] = [];
  const refusals: number[] = [];
  const { starttls } = options;
  const server = new SMTPServer({
    authOptional: true,
    ...(starttls
      ? { cert: starttls.cert, key: starttls.key, disabledCommands: ['AUTH'], hideSTARTTLS: false }
      : { disabledCommands: ['STARTTLS', 'AUTH'] }),
    onMailFrom(_address, session, callback) {
      callback(starttls && !session.secure ? new Error('Must issue a STARTTLS command first') : undefined);
    },
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const code = refusals.shift();
        if (code !== undefined) {
          const error = Object.assign(new Error(code >= 500 ? 'Mailbox unavailable' : 'Try again later'), {
            responseCode: code,
          });
          callback(error);
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw,
          ...readMessage(raw),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refuseNext: (...codes) => refusals.push(...codes),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
