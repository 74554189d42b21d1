import { escapeHtml, htmlMail, mailTime } from '../../mail/compose.ts';
import type { Mail } from '../../mail/mailer.ts';

export interface Invitation {
  to: string;
  inviter: string;
  orgName: string;
  admin: boolean;
  /** The console's link that opens the invitation (the one the console shows its author). */
  url: string;
  expiresAt: string;
}

function daysUntil(iso: string): string {
  const days = Math.round((Date.parse(iso) - Date.now()) / 86_400_000);
  return days >= 2 ? `in ${days} days` : days === 1 ? 'in a day' : 'within a day';
}

/** The mail that brings an invitation to the invitee: who invites them where, the link, and until when. */
export function invitationMail(invitation: Invitation): Mail {
  const { to, inviter, orgName, admin, url, expiresAt } = invitation;
  const role = admin ? ' as an admin' : '';
  const expiry = `The invitation expires ${daysUntil(expiresAt)} (${mailTime(expiresAt)}) and can be used once.`;
  const text = [
    `${inviter} invited you to join ${orgName}${role} on Wharf, where the organization's teams publish their sites.`,
    '',
    'Open this link to accept or decline:',
    url,
    '',
    expiry,
    `If you did not expect it, ignore this mail: nothing happens until the link is used.`,
    '',
  ].join('\n');
  const html = htmlMail(
    [
      `<p><b>${escapeHtml(inviter)}</b> invited you to join <b>${escapeHtml(orgName)}</b>${role} on Wharf, ` +
        `where the organization's teams publish their sites.</p>`,
      `<p><a href="${escapeHtml(url)}" style="display:inline-block;padding:10px 18px;border-radius:6px;` +
        `background:#228be6;color:#ffffff;text-decoration:none;font-weight:600">Open the invitation</a></p>`,
      `<p style="font-size:13px;color:#495057">Or paste this link into your browser:<br>` +
        `<a href="${escapeHtml(url)}">${escapeHtml(url)}</a></p>`,
      `<p style="font-size:13px;color:#868e96">${escapeHtml(expiry)} ` +
        `If you did not expect it, ignore this mail: nothing happens until the link is used.</p>`,
    ].join('\n'),
  );
  return { to, subject: `${inviter} invited you to join ${orgName} on Wharf`, text, html };
}
