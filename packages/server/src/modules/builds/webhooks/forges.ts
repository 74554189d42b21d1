import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** The forges whose webhooks Wharf reads. Gitea and Forgejo send the same deliveries. */
export type Forge = 'github' | 'gitlab' | 'gitea';

const header = (headers: IncomingHttpHeaders, name: string) => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * Which forge sent a delivery, by the headers each sets. Gitea and Forgejo also send GitHub's
 * event header for the tools that read only it, so they are recognised first.
 */
export function forgeOf(headers: IncomingHttpHeaders): Forge | null {
  if (header(headers, 'x-gitea-event') || header(headers, 'x-forgejo-event')) return 'gitea';
  if (header(headers, 'x-gitlab-event')) return 'gitlab';
  if (header(headers, 'x-github-event')) return 'github';
  return null;
}

/** The event's name as the forge's header says it (`push`, `pull_request`, `Merge Request Hook`…). */
export function eventOf(forge: Forge, headers: IncomingHttpHeaders): string {
  const name = { github: 'x-github-event', gitlab: 'x-gitlab-event', gitea: 'x-gitea-event' }[forge];
  return header(headers, name) ?? header(headers, 'x-forgejo-event') ?? '';
}

/** The forge's id of the delivery, where it sends one; what the replay check records beside the body. */
export function deliveryOf(forge: Forge, headers: IncomingHttpHeaders): string {
  const names = {
    github: ['x-github-delivery'],
    gitlab: ['x-gitlab-event-uuid', 'idempotency-key'],
    gitea: ['x-gitea-delivery', 'x-forgejo-delivery'],
  }[forge];
  return names.map((name) => header(headers, name)).find(Boolean) ?? '';
}

const equalText = (a: string, b: string) => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

const hmacHex = (secret: string, body: Buffer) => createHmac('sha256', secret).update(body).digest('hex');

/**
 * Whether the delivery carries the forge's proof that it knows the secret: GitHub's
 * `X-Hub-Signature-256` (`sha256=` and the HMAC-SHA256 of the body), GitLab's `X-Gitlab-Token`
 * (the secret itself), Gitea's and Forgejo's `X-Gitea-Signature`/`X-Forgejo-Signature` (the HMAC
 * in hex). Compared in constant time.
 */
export function isSigned(forge: Forge, headers: IncomingHttpHeaders, body: Buffer, secret: string): boolean {
  if (forge === 'gitlab') return equalText(header(headers, 'x-gitlab-token') ?? '', secret);
  if (forge === 'github')
    return equalText(header(headers, 'x-hub-signature-256') ?? '', `sha256=${hmacHex(secret, body)}`);
  const signature = header(headers, 'x-gitea-signature') ?? header(headers, 'x-forgejo-signature') ?? '';
  return equalText(signature, hmacHex(secret, body));
}
