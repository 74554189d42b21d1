import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { Form } from '@wharf/contract';
import type { Db, Transaction } from '../db/schema.ts';
import { requestHost } from '../http/requestHost.ts';
import type { Counters } from '../lib/counters.ts';
import { now } from '../lib/ids.ts';
import { FailureLimiter } from '../lib/rateLimit.ts';
import type { Sealer } from '../lib/secrets.ts';
import { queueMail } from '../mail/queue.ts';
import { findBranchForm } from '../modules/forms/index.ts';
import { type NewSubmission, storeSubmission } from '../modules/submissions/index.ts';
import { FormBodyError, readFormBody } from './formBody.ts';
import { formMail } from './formMail.ts';
import { sendPage } from './pages.ts';
import type { BranchEntry, SiteEntry } from './routingTable.ts';

export const FORMS_PREFIX = '.wharf/forms/';
/** A field bots fill in and people never see: a submission with it is kept apart as spam, quietly. */
const HONEYPOT = '_gotcha';
const NEXT = '_next';
/** The field that names the form in a post to the page's own address (Netlify's way). */
const FORM_NAME = 'form-name';
/** The bodies a browser's form posts: only those are read for a `form-name` at a page's address. */
const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data']);
const WEB_SCHEMES = new Set(['http:', 'https:']);

/** Whether a POST to a page's address may be a form's (Netlify's way): what a browser's form sends. */
export function isFormPost(req: IncomingMessage) {
  return (
    req.method === 'POST' && FORM_TYPES.has((req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase())
  );
}

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
 * else the home page. A post to a page (Netlify's way) goes to that page instead of the referring
 * one: the form's `action` names its success page, as on Netlify. Only the path, query and
 * fragment are answered, so the visitor stays on the scheme and host they posted to; the scheme is not compared, as a TLS proxy in front makes the
 * page's `https` reach the edge as `http`.
 */
function returnAddress(req: IncomingMessage, next: string | undefined, atPage: boolean) {
  const site = parseUrl(`${(req.socket as TLSSocket).encrypted ? 'https' : 'http'}://${requestHost(req)}`);
  if (!site) return '/';
  for (const candidate of [next, atPage ? req.url : req.headers.referer]) {
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

/** Where a form post arrived. */
interface FormPost {
  site: SiteEntry;
  branch: BranchEntry;
  clientAddress: string;
}

const acceptsJson = (req: IncomingMessage) => (req.headers.accept ?? '').includes('application/json');

/** A form nothing declared nor detected: the visitor is told, not sent back as if it worked. */
function noSuchForm(res: ServerResponse, wantsJson: boolean) {
  return wantsJson ? sendJson(res, 404, { message: 'No such form' }) : sendPage(res, 404, 'notFound');
}

function tooMany(res: ServerResponse, wantsJson: boolean) {
  return wantsJson ? sendJson(res, 429, { message: 'Too many submissions' }) : sendPage(res, 429, 'tooManyRequests');
}

/** The post's fields; null when it could not be read, after answering why. */
async function readFields(req: IncomingMessage, res: ServerResponse) {
  try {
    return await readFormBody(req);
  } catch (error) {
    const status = error instanceof FormBodyError ? error.status : 400;
    sendJson(res, status, { message: status === 413 ? 'The form is too large' : 'The form could not be read' });
    return null;
  }
}

/** What email forms need: the sealer of mail jobs, and who to tell that one was queued. */
export interface FormMailParts {
  sealer: Sealer;
  /** Wakes this process's dispatcher and job runner, if it has them; elsewhere their polls find the work. */
  afterCommit?: () => void;
}

/**
 * Form posts on the site's own host, to `/.wharf/forms/{name}` or to a page with a `form-name`
 * field. The form must be one of the site's that the branch sees (declared by people, in
 * `.wharf.yml`, or found in an upload's HTML); `db` forms are stored, `email` forms are stored and
 * a mail is queued.
 */
export class FormReceiver {
  private readonly submissions: FailureLimiter;

  constructor(
    private readonly db: Db,
    private readonly mail: FormMailParts,
    counters: Counters,
  ) {
    this.submissions = new FailureLimiter(counters, 'form-submissions', 20, 60_000);
  }

  /** A post to `/.wharf/forms/{name}`. Answers the number of body bytes sent. */
  async receive(req: IncomingMessage, res: ServerResponse, input: FormPost & { formName: string }): Promise<number> {
    const wantsJson = acceptsJson(req);
    const form = await this.formOf(input, input.formName);
    if (!form) return noSuchForm(res, wantsJson);
    if (await this.limited(input.clientAddress)) return tooMany(res, wantsJson);
    const fields = await readFields(req, res);
    if (!fields) return 0;
    return this.accept(req, res, form, fields, input, false);
  }

  /**
   * A form's post to a page's own address, naming the form in its `form-name` field (Netlify's
   * way). A post that names none gets `otherwise` (the 405 of any page); one naming a form the
   * branch does not have, the 404 of an unknown form.
   */
  async receiveAtPage(req: IncomingMessage, res: ServerResponse, input: FormPost, otherwise: () => number) {
    const wantsJson = acceptsJson(req);
    if (await this.limited(input.clientAddress)) return tooMany(res, wantsJson);
    const fields = await readFields(req, res);
    if (!fields) return 0;
    const name = fields[FORM_NAME];
    if (!name) return otherwise();
    const form = await this.formOf(input, name);
    if (!form) return noSuchForm(res, wantsJson);
    return this.accept(req, res, form, fields, input, true);
  }

  /** The form the branch has by this name; none without a release, which is what a submission records. */
  private async formOf(input: FormPost, name: string) {
    if (!input.branch.releaseId) return undefined;
    return findBranchForm(this.db, input.site.id, input.branch.id, name);
  }

  /** Counts every submission, not only failures: a hard cap per address keeps floods out. */
  private async limited(clientAddress: string) {
    if (await this.submissions.isBlocked(clientAddress)) return true;
    await this.submissions.fail(clientAddress);
    return false;
  }

  private async accept(
    req: IncomingMessage,
    res: ServerResponse,
    form: Form,
    fields: Record<string, string>,
    input: FormPost,
    atPage: boolean,
  ) {
    const { [HONEYPOT]: trap, [NEXT]: next, [FORM_NAME]: _named, ...rest } = fields;
    const { [form.honeypot ?? HONEYPOT]: declaredTrap, ...values } = rest;
    const posted = { ...input, releaseId: input.branch.releaseId! };
    // Spam is kept for the site's people to look through, and nothing more: no mail, no event.
    if (trap || declaredTrap) await storeSubmission(this.db, submissionOf(form, values, posted, now(), true));
    else {
      await this.store(form, values, posted);
      this.mail.afterCommit?.();
    }
    if (acceptsJson(req)) return sendJson(res, 200, { ok: true });
    res.writeHead(303, { location: returnAddress(req, next, atPage), 'content-length': '0' });
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
