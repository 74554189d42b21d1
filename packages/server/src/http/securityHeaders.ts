import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { Config } from '../config/types.ts';

/** The placeholder the console's build puts where each page's nonce goes (vite.config.ts `html.cspNonce`). */
export const NONCE_PLACEHOLDER = 'WHARF_CSP_NONCE';

/** Where a page's nonce goes in the policy computed once (see `installSecurityHeaders`). */
const NONCE_MARK = 'WHARF-NONCE-MARK';

/** The policy of each server's console pages around their nonce: a page's is these two with its nonce between. */
const pagePolicies = new WeakMap<FastifyInstance, [string, string]>();

/**
 * The nonce of this answer's Content-Security-Policy, made as the console's page asks for it: its
 * own style tags carry it. Only pages pay for it; the API's answers keep the policy without one.
 */
export function cspNonceOf(reply: FastifyReply): string {
  const around = pagePolicies.get(reply.server);
  if (!around) return '';
  const nonce = randomBytes(16).toString('base64');
  reply.raw.setHeader('content-security-policy', `${around[0]}${nonce}${around[1]}`);
  return nonce;
}

/** Where the console may connect: its own origin (API, real-time socket) and the crash-report collector. */
function connectSources(config: Config) {
  const websocket = `${config.url.protocol === 'https:' ? 'wss' : 'ws'}://${config.url.host}`;
  const sources = ["'self'", websocket];
  if (config.crashReportDsn) sources.push(new URL(config.crashReportDsn).origin);
  return sources;
}

/**
 * Where the sign-in providers live: connecting an account is a form whose answer redirects there
 * (form-action covers redirects), and avatars come from there or from anywhere over HTTPS.
 */
function providerOrigins(config: Config) {
  const { codeHosts, oidc } = config.signIn;
  const bases = [...Object.values(codeHosts).map((host) => host.baseUrl), ...(oidc ? [oidc.issuer] : [])];
  return [...new Set(bases.map((base) => base.origin))];
}

/** Helmet's settings for the console and the API; `styleNonce` is the page's, or none for other answers. */
function helmetOptions(config: Config, styleNonce: string | null): HelmetOptions {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // A refused style is reported with its first characters, so its source can be found.
        styleSrc: ["'self'", ...(styleNonce ? [`'nonce-${styleNonce}'`] : []), "'report-sample'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:', ...providerOrigins(config)],
        fontSrc: ["'self'", 'data:'],
        connectSrc: connectSources(config),
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'", ...providerOrigins(config)],
        frameAncestors: ["'none'"],
      },
    },
    strictTransportSecurity: false,
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'same-origin' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
  };
}

/** The headers helmet sets with these options: they depend on nothing of a request, so they are read once. */
function headersOf(options: HelmetOptions): [string, string][] {
  const headers: [string, string][] = [];
  const recorder = {
    setHeader: (name: string, value: unknown) => headers.push([name.toLowerCase(), String(value)]),
    removeHeader: () => undefined,
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, () => undefined);
  return headers;
}

/**
 * Headers on every answer of the console and the API (the sites' answers are their own): no
 * framing, no sniffing, no referrer outside the console, and a Content-Security-Policy that lets
 * only the console's own files run. Mantine writes its theme into style tags: a console page's
 * policy carries a nonce made for it, which its tags carry too. HSTS belongs to the HTTPS
 * settings, so it is left out here. Helmet computes the headers once, at start; a request only
 * copies them (on the raw answer, so that answers the console's files write themselves have them).
 */
export function installSecurityHeaders(fastify: FastifyInstance, config: Config) {
  const headers = headersOf(helmetOptions(config, null));
  const pagePolicy = headersOf(helmetOptions(config, NONCE_MARK)).find(([name]) => name === 'content-security-policy');
  const [before, after] = (pagePolicy?.[1] ?? '').split(NONCE_MARK) as [string, string];
  pagePolicies.set(fastify, [before, after]);
  fastify.addHook('onRequest', (_request, reply, done) => {
    const res = reply.raw;
    for (const [name, value] of headers) res.setHeader(name, value);
    done();
  });
}
