import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { Form } from '@wharf/contract';
import type { Db, Transaction } from '../db/schema.ts';
import { requestHost } from '../http/requestHost.ts';
import type { Counters } from '../lib/counters.ts';
import { now } from '../lib/ids.ts';
import { readJson } from '../lib/json.ts';
import { FailureLimiter } from '../lib/rateLimit.ts';
import type { Sealer } from '../lib/secrets.ts';
import { queueMail } from '../mail/queue.ts';
import { type NewSubmission, storeSubmission } from '../modules/submissions/service.ts';
import { FormBodyError, readFormBody } from './formBody.ts';
import { formMail } from './formMail.ts';
import { sendPage } from './pages.ts';
import type { BranchEntry, SiteEntry } from './routingTable.ts';

export const FORMS_PREFIX = '.wharf/forms/';
/** A field bots fill in and people never see: a submission with it is kept apart as spam, quietly. */
const HONEYPOT = '_gotcha';
const NEXT = '_next';
const WEB_SCHEMES = new Set(['http:', 'https:']);

function sendJson(res: ServerResponse, status: number, body: unknown) {
  const text = Buffer.from(JSON.stringify(body));
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(text.length),
  });
  res.end(text);
  return text.length;
}

/** A URL parsed as a browser would (`/\evil.example` is `//evil.example`); null when it is none. */
function parseUrl(address: string, base?: URL) {
  try {
    return new URL(address, base);
  } catch {
    return null;
  }
}

/**
 * Where to send the visitor back: `_next` or the referring page when it resolves to this site's host,
 * else the home page. Only the path, query and fragment are answered, so the visitor stays on the
 * scheme and host they posted to; the scheme is not compared, as a TLS proxy in front makes the
 * page's `https` reach the edge as `http`.
 */
function returnAddress(req: IncomingMessage, next: string | undefined) {
  const site = parseUrl(`${(req.socket as TLSSocket).encrypted ? 'https' : 'http'}://${requestHost(req)}`);
  if (!site) return '/';
  for (const candidate of [next, req.headers.referer]) {
    const url = candidate ? parseUrl(candidate, site) : null;
    if (!url || !WEB_SCHEMES.has(url.protocol) || url.host !== site.host) continue;
    // On this host, a path such as `//evil.example/` would still be read as another host.
    return url.pathname.replace(/^\/+/, '/') + url.search + url.hash;
  }
  return '/';
}

function submissionOf(
  form: Form,
  fields: Record<string, string>,
  input: { site: SiteEntry; branch: BranchEntry; releaseId: string; clientAddress: string },
  createdAt: string,
  spam: boolean,
): NewSubmission {
  const { site, branch, releaseId, clientAddress } = input;
  return { siteId: site.id, branchId: branch.id, releaseId, form: form.name, fields, clientAddress, createdAt, spam };
}

/** What email forms need: the sealer of mail jobs, and who to tell that one was queued. */
export interface FormMailParts {
  sealer: Sealer;
  /** Wakes this process's dispatcher and job runner, if it has them; elsewhere their polls find the work. */
  afterCommit?: () => void;
}

/**
 * Form posts to `/.wharf/forms/{name}` on the site's own host. The serving release must declare
 * the form; `db` forms are stored, `email` forms are stored and a mail is queued.
 */
export class FormReceiver {
  // Counts every submission, not only failures: a hard cap per address keeps floods out.
  private readonly submissions: FailureLimiter;

  constructor(
    private readonly db: Db,
    private readonly mail: FormMailParts,
    counters: Counters,
  ) {
    this.submissions = new FailureLimiter(counters, 'form-submissions', 20, 60_000);
  }

  /** Answers the number of body bytes sent. */
  async receive(
    req: IncomingMessage,
    res: ServerResponse,
    input: { site: SiteEntry; branch: BranchEntry; formName: string; clientAddress: string },
  ): Promise<number> {
    const wantsJson = (req.headers.accept ?? '').includes('application/json');
    const release = input.branch.releaseId
      ? await this.db
          .selectFrom('releases')
          .select(['id', 'forms'])
          .where('id', '=', input.branch.releaseId)
          .executeTakeFirst()
      : undefined;
    const form = release && readJson<Form[]>(release.forms).find((f) => f.name === input.formName);
    if (!release || !form)
      return wantsJson ? sendJson(res, 404, { message: 'No such form' }) : sendPage(res, 404, 'notFound');
    if (await this.submissions.isBlocked(input.clientAddress)) {
      return wantsJson
        ? sendJson(res, 429, { message: 'Too many submissions' })
        : sendPage(res, 429, 'tooManyRequests');
    }
    await this.submissions.fail(input.clientAddress);
    let fields: Record<string, string>;
    try {
      fields = await readFormBody(req);
    } catch (error) {
      const status = error instanceof FormBodyError ? error.status : 400;
      return sendJson(res, status, {
        message: status === 413 ? 'The form is too large' : 'The form could not be read',
      });
    }
    const { [HONEYPOT]: trap, [NEXT]: next, ...values } = fields;
    const posted = { ...input, releaseId: release.id };
    // Spam is kept for the site's people to look through, and nothing more: no mail, no event.
    if (trap) await storeSubmission(this.db, submissionOf(form, values, posted, now(), true));
    else {
      await this.store(form, values, posted);
      this.mail.afterCommit?.();
    }
    if (wantsJson) return sendJson(res, 200, { ok: true });
    res.writeHead(303, { location: returnAddress(req, next), 'content-length': '0' });
    res.end();
    return 0;
  }

  private async store(
    form: Form,
    values: Record<string, string>,
    input: { site: SiteEntry; branch: BranchEntry; releaseId: string; clientAddress: string },
  ) {
    const createdAt = now();
    await this.db.transaction().execute(async (trx) => {
      await storeSubmission(trx, submissionOf(form, values, input, createdAt, false));
      if (form.type === 'email') await this.queueFormMail(trx, form, values, { ...input, createdAt });
    });
  }

  /** Queues the mail of an email form's submission, sealed, in the submission's transaction. */
  private async queueFormMail(
    trx: Transaction,
    form: Extract<Form, { type: 'email' }>,
    values: Record<string, string>,
    input: { site: SiteEntry; branch: BranchEntry; clientAddress: string; createdAt: string },
  ) {
    const { site, branch, clientAddress, createdAt } = input;
    const mail = formMail(form, { siteName: site.name, branch: branch.slug, clientAddress, createdAt, values });
    await queueMail(trx, this.mail.sealer, mail);
  }
}
