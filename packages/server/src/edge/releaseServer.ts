import type { TrustProxy } from '../config/types.ts';
import { clientAddressOf, clientOf } from '../http/trustProxy.ts';
import type { RedirectMatch } from '../releaseRules/index.ts';
import type { AnswerHeaders } from './answerHeaders.ts';
import type { Manifest } from './manifests.ts';
import type { PasswordGate } from './passwords.ts';
import { actionOf } from './releaseRedirects.ts';
import { namedFile, normalisePath, resolveFile } from './resolvePath.ts';
import type { FileResponder } from './respond.ts';
import { type Answer, headersToWrite, redirectTo, refuse, type SiteRequest, sendRequestPage } from './siteAnswers.ts';

/** What serving a release takes from the edge around it. */
export interface ReleaseServing {
  gate: PasswordGate;
  responder: FileResponder;
  answerHeaders: AnswerHeaders;
  trustProxy: TrustProxy;
  /** The edge's answer to a method other than GET and HEAD (a 405, or a form's post to a page); null for those. */
  onlyGetOrHead(request: SiteRequest): Answer | null;
  /** Streams the request to an upstream through the outbound guard. */
  proxyTo(request: SiteRequest, url: URL): Answer;
}

/**
 * A branch's release, once the edge has found the branch and let the request past the branch's
 * own password and rules: the release's `_headers` (a `Basic-Auth` among them), its `_redirects`,
 * then its files.
 */
export class ReleaseServer {
  constructor(private readonly parts: ReleaseServing) {}

  /**
   * A path the release's `_headers` protect with `Basic-Auth` asks for one of its users, through
   * the gate of site passwords. A branch with a password of its own has asked for it already, and
   * that is enough: a browser sends one credential.
   */
  serve(request: SiteRequest, manifest: Manifest): Answer {
    const guard = request.branch.protection
      ? null
      : manifest.rules?.headers?.headersFor(request.host, request.rulePath).guard;
    if (!guard) return this.serveOpen(request, manifest);
    const { req } = request;
    request.guarded = true;
    const verdict = this.parts.gate.check(req, guard, () => clientAddressOf(req, this.parts.trustProxy));
    if (verdict === 'allowed') return this.serveOpen(request, manifest);
    if (typeof verdict === 'string') return refuse(request, verdict);
    return verdict.then((late) => (late === 'allowed' ? this.serveOpen(request, manifest) : refuse(request, late)));
  }

  /**
   * The release's `_redirects` (a file at the path shadows the rules not forced with `!`), then
   * its files; `_headers` apply to every answer for the path.
   */
  private serveOpen(request: SiteRequest, manifest: Manifest): Answer {
    const { branch, path, trailingSlash, query, host, rulePath } = request;
    const rules = manifest.rules;
    // A file's answer takes these headers with its prepared ones; other answers get them set here.
    if (rules?.headers)
      request.headers = this.parts.answerHeaders.headersFor(branch, rules, host, rulePath, request.hsts);
    if (rules?.redirects) {
      const exists = namedFile(manifest, path, trailingSlash) !== undefined;
      const scheme = clientOf(request.req, this.parts.trustProxy).protocol;
      const hit = rules.redirects.match(host, rulePath, query, { onlyForced: exists, scheme });
      if (hit) return this.followRule(request, manifest, hit);
    }
    return this.parts.onlyGetOrHead(request) ?? this.sendFile(request, manifest);
  }

  /** What a `_redirects` rule says: a redirect, a proxy, or another file of the release (200 or 404). */
  private followRule(request: SiteRequest, manifest: Manifest, hit: RedirectMatch): Answer {
    const action = actionOf(hit, request.query);
    if (action.kind === 'redirect')
      return redirectTo(request.res, action.status, action.location, headersToWrite(request));
    if (action.kind === 'proxy') return this.parts.proxyTo(request, action.url);
    return this.parts.onlyGetOrHead(request) ?? this.sendRewrite(request, manifest, action.path, action.status);
  }

  /** A rewrite serves the target's file under the request's address, with the rule's status. */
  private sendRewrite(request: SiteRequest, manifest: Manifest, target: string, status: 200 | 404): Answer {
    const normalised = normalisePath(target);
    const file = normalised ? namedFile(manifest, normalised.path, normalised.trailingSlash) : undefined;
    if (!file) return this.sendFile(request, manifest);
    return this.parts.responder.send(request.req, request.res, file, status, request.headers);
  }

  private sendFile(request: SiteRequest, manifest: Manifest): Answer {
    const { req, res, site, path, trailingSlash, query, headers } = request;
    const resolution = resolveFile(manifest, path, trailingSlash, site, query);
    if (resolution.kind === 'redirect')
      return redirectTo(res, resolution.status, resolution.location, headersToWrite(request));
    if (resolution.kind === 'notFound') return sendRequestPage(request, 404, 'notFound');
    return this.parts.responder.send(req, res, resolution.file, resolution.status, headers);
  }
}
