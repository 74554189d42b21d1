import type { Form } from '@wharf/contract';
import { escapeHtml, htmlMail, isMailAddress, mailTime } from '../mail/compose.ts';
import type { Mail } from '../mail/mailer.ts';

/** The fields whose address a reply goes to, by name, case aside. */
const REPLY_FIELDS = new Set(['email', '_replyto']);

export interface Submission {
  siteName: string;
  branch: string;
  clientAddress: string;
  /** ISO time it was received. */
  createdAt: string;
  values: Record<string, string>;
}

/** The submitter's address when a field `email` (or `_replyto`) holds a valid one: a reply then reaches them. */
export function replyToOf(values: Record<string, string>): string | undefined {
  const address = Object.entries(values)
    .filter(([name]) => REPLY_FIELDS.has(name.toLowerCase()))
    .map(([, value]) => value.trim())
    .find(isMailAddress);
  return address;
}

/** The fields as aligned `name: value` lines; a value's further lines start under its first. */
function fieldLines(values: Record<string, string>): string {
  const entries = Object.entries(values);
  if (entries.length === 0) return '(no fields)';
  const width = Math.max(...entries.map(([name]) => name.length)) + 2;
  return entries
    .map(([name, value]) => `${name}:`.padEnd(width) + value.split(/\r?\n/).join(`\n${' '.repeat(width)}`))
    .join('\n');
}

function fieldTable(values: Record<string, string>): string {
  const entries = Object.entries(values);
  if (entries.length === 0) return '<p>(no fields)</p>';
  const cell = 'padding:6px 12px;border-bottom:1px solid #e9ecef;vertical-align:top;text-align:left';
  const rows = entries.map(
    ([name, value]) =>
      `<tr><th style="${cell};font-weight:600;white-space:nowrap">${escapeHtml(name)}</th>` +
      `<td style="${cell};white-space:pre-wrap">${escapeHtml(value)}</td></tr>`,
  );
  return `<table style="border-collapse:collapse">\n${rows.join('\n')}\n</table>`;
}

/** The mail an email form sends its recipient for one submission: the fields as a table, text and HTML. */
export function formMail(form: Extract<Form, { type: 'email' }>, submission: Submission): Mail {
  const { siteName, branch, clientAddress, createdAt, values } = submission;
  const when = mailTime(createdAt);
  const replyTo = replyToOf(values);
  const replyNote = replyTo ? `Reply to this mail to answer ${replyTo}.` : '';
  const text = [
    `New submission of the form ${form.name} on ${siteName} (branch ${branch}), ${when}.`,
    '',
    fieldLines(values),
    '',
    `Sent from ${clientAddress}. ${replyNote}`.trim(),
    '',
  ].join('\n');
  const html = htmlMail(
    [
      `<p>New submission of the form <b>${escapeHtml(form.name)}</b> on <b>${escapeHtml(siteName)}</b> ` +
        `(branch ${escapeHtml(branch)}), ${escapeHtml(when)}.</p>`,
      fieldTable(values),
      `<p style="color:#868e96;font-size:13px">Sent from ${escapeHtml(clientAddress)}. ${escapeHtml(replyNote)}</p>`,
    ].join('\n'),
  );
  return {
    to: form.recipient,
    subject: `New submission of ${form.name} on ${siteName}`,
    text,
    html,
    ...(replyTo ? { replyTo } : {}),
  };
}
