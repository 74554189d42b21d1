import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { approvalPage, refusalPage } from './approvalPage.ts';
import { redirectTo } from './http.ts';
import type { Answer, Dialect, Grant, PeerUser, RecordedRequest, TokenRefusal } from './types.ts';

const CODE_LIFETIME_MS = 60_000;

/** What a person approved: everything a code is bound to. */
interface Approval {
  clientId: string;
  redirectUri: string;
  state: string | undefined;
  scopes: string[];
  challenge: string;
  user: PeerUser;
}

interface IssuedCode extends Approval {
  expiresAt: number;
  used: boolean;
}

export interface ClientRegistration {
  clientId: string;
  clientSecret: string;
  redirectUri: string | undefined;
  autoApprove: boolean;
}

const randomToken = (prefix = '') => `${prefix}${randomBytes(24).toString('base64url')}`;

/** base64url(sha256(verifier)), as RFC 7636's S256 method derives the challenge. */
const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** The OAuth 2 authorization-code flow with PKCE, shared by every provider; the dialect words the answers. */
export function authorizationServer(dialect: Dialect, client: ClientRegistration, users: Map<string, PeerUser>) {
  const pending = new Map<string, Approval>();
  const codes = new Map<string, IssuedCode>();
  const grants = new Map<string, Grant & { user: PeerUser; expired?: boolean }>();
  let signedIn: string | undefined;
  let denyNext = false;

  function approve(approval: Approval): Answer {
    const code = randomToken();
    codes.set(code, { ...approval, expiresAt: Date.now() + CODE_LIFETIME_MS, used: false });
    return redirectTo(approval.redirectUri, { code, ...(approval.state ? { state: approval.state } : {}) });
  }

  function deny(approval: Pick<Approval, 'redirectUri' | 'state'>): Answer {
    return redirectTo(approval.redirectUri, {
      error: 'access_denied',
      error_description: dialect.deniedDescription,
      ...(approval.state ? { state: approval.state } : {}),
    });
  }

  /** Why a request may not proceed: a page for a foreign client or redirect URI, a redirect for the rest. */
  function refusalOf(q: Record<string, string>): Answer | undefined {
    if (q.client_id !== client.clientId) return refusalPage(`Unknown client_id ${q.client_id ?? '(none)'}`);
    if (!client.redirectUri) return refusalPage('The test registered no redirect URI (setRedirectUri)');
    if (q.redirect_uri !== client.redirectUri)
      return refusalPage(`redirect_uri ${q.redirect_uri ?? '(none)'} is not the registered ${client.redirectUri}`);
    const invalid = (description: string) =>
      redirectTo(client.redirectUri!, {
        error: 'invalid_request',
        error_description: description,
        ...(q.state ? { state: q.state } : {}),
      });
    if (q.response_type !== 'code') return invalid('response_type must be code');
    if (!q.code_challenge) return invalid('code_challenge is required');
    if (q.code_challenge_method !== 'S256') return invalid('code_challenge_method must be S256');
    return undefined;
  }

  function authorize(request: RecordedRequest): Answer {
    const q = request.query;
    const refusal = refusalOf(q);
    if (refusal) return refusal;
    const back = { redirectUri: q.redirect_uri!, state: q.state };
    if (denyNext) {
      denyNext = false;
      return deny(back);
    }
    const user = signedIn ? users.get(signedIn) : undefined;
    if (!user) return refusalPage('Nobody is signed in at the provider (signInAs)');
    const approval: Approval = {
      ...back,
      clientId: client.clientId,
      scopes: (q.scope ?? '').split(/[\s,]+/).filter(Boolean),
      challenge: q.code_challenge!,
      user,
    };
    if (client.autoApprove) return approve(approval);
    const pendingId = randomToken();
    pending.set(pendingId, approval);
    return approvalPage({
      provider: dialect.provider,
      action: dialect.authorizePath,
      pendingId,
      login: user.login,
      scopes: approval.scopes,
    });
  }

  /** The approval page's form: approve or cancel the pending request it names. */
  function decide(request: RecordedRequest): Answer {
    const form = new URLSearchParams(request.body);
    const approval = pending.get(form.get('pending') ?? '');
    if (!approval) return refusalPage('This authorization request is unknown or already answered');
    pending.delete(form.get('pending') ?? '');
    return form.get('decision') === 'approve' ? approve(approval) : deny(approval);
  }

  /** Client credentials from HTTP Basic (RFC 6749 §2.3.1: each part form-encoded) or from the body. */
  function clientCredentials(request: RecordedRequest, form: URLSearchParams) {
    const basic = /^Basic\s+(.+)$/i.exec(String(request.headers.authorization ?? ''))?.[1];
    if (basic) {
      const pair = Buffer.from(basic, 'base64').toString('utf8');
      const colon = pair.indexOf(':');
      const [id, secret] = colon < 0 ? [pair, ''] : [pair.slice(0, colon), pair.slice(colon + 1)];
      return { id: decodeURIComponent(id.replace(/\+/g, ' ')), secret: decodeURIComponent(secret.replace(/\+/g, ' ')) };
    }
    return { id: form.get('client_id') ?? '', secret: form.get('client_secret') ?? '' };
  }

  function redeem(request: RecordedRequest): { refusal: TokenRefusal } | { grant: Grant } {
    const form = request.headers['content-type']?.includes('application/json')
      ? new URLSearchParams(JSON.parse(request.body || '{}'))
      : new URLSearchParams(request.body);
    const grantType = form.get('grant_type');
    if (grantType !== 'authorization_code' && grantType !== 'refresh_token')
      return { refusal: 'unsupported_grant_type' };
    const credentials = clientCredentials(request, form);
    if (credentials.id !== client.clientId || !sameText(credentials.secret, client.clientSecret))
      return { refusal: 'invalid_client' };
    if (grantType === 'refresh_token') return refreshed(form.get('refresh_token') ?? '');
    const code = codes.get(form.get('code') ?? '');
    if (!code || code.clientId !== credentials.id || code.expiresAt < Date.now()) return { refusal: 'bad_code' };
    if (code.used) return { refusal: 'reused_code' };
    // Single use even when refused below: a code is spent by its first presentation.
    code.used = true;
    if (form.get('redirect_uri') !== code.redirectUri) return { refusal: 'redirect_mismatch' };
    const verifier = form.get('code_verifier');
    if (!verifier) return { refusal: 'invalid_request' };
    if (!sameText(s256(verifier), code.challenge)) return { refusal: 'bad_verifier' };
    return { grant: issue(code.user, code.scopes) };
  }

  /** A new pair of tokens for `user`, kept as the grant its access token names. */
  function issue(user: PeerUser, scopes: string[]): Grant {
    const grant = { accessToken: randomToken('peer_'), refreshToken: randomToken(), scopes, createdAt: new Date() };
    grants.set(grant.accessToken, { ...grant, user });
    return grant;
  }

  /** A refresh token for a new pair, as GitLab and Gitea rotate them: the old pair stops working. */
  function refreshed(refreshToken: string): { refusal: TokenRefusal } | { grant: Grant } {
    const old = [...grants.values()].find((grant) => grant.refreshToken === refreshToken);
    if (!old) return { refusal: 'bad_code' };
    grants.delete(old.accessToken);
    return { grant: issue(old.user, old.scopes) };
  }

  function token(request: RecordedRequest): Answer {
    const accept = String(request.headers.accept ?? '');
    const outcome = redeem(request);
    return 'grant' in outcome
      ? dialect.tokenIssued(outcome.grant, accept)
      : dialect.tokenRefused(outcome.refusal, accept);
  }

  /** The grant behind an `Authorization: Bearer …` (or GitHub/Gitea's `token …`) header, unless expired. */
  function grantOf(request: RecordedRequest) {
    const presented = /^(?:Bearer|token)\s+(\S+)$/i.exec(String(request.headers.authorization ?? ''))?.[1];
    const grant = presented ? grants.get(presented) : undefined;
    return grant && !grant.expired ? grant : undefined;
  }

  return {
    authorize,
    decide,
    token,
    grantOf,
    signInAs(login: string) {
      if (!users.has(login)) throw new Error(`No user ${login} at the peer; addUser first`);
      signedIn = login;
    },
    denyNext() {
      denyNext = true;
    },
    revokeAll() {
      grants.clear();
    },
    expireAll() {
      for (const grant of grants.values()) grant.expired = true;
    },
  };
}
