import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Config } from '../config/types.ts';

/** The placeholder the console's build puts where each page's nonce goes (vite.config.ts `html.cspNonce`). */
export const NONCE_PLACEHOLDER = 'WHARF_CSP_NONCE';

const nonces = new WeakMap<ServerResponse, string>();

/** The nonce of this answer's Content-Security-Policy: the console's own style tags carry it. */
export function cspNonceOf(reply: FastifyReply): string {
  return nonces.get(reply.raw) ?? '';
}

const nonceSource = (_request: unknown, response: ServerResponse) => `'nonce-${nonces.get(response) ?? ''}'`;

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

/**
 * Headers on every answer of the console and the API (the sites' answers are their own): no
 * framing, no sniffing, no referrer outside the console, and a Content-Security-Policy that lets
 * only the console's own files run. Mantine writes its theme into style tags: those carry a nonce
 * made for each answer. HSTS belongs to the HTTPS settings, so it is left out here.
 */
export async function installSecurityHeaders(fastify: FastifyInstance, config: Config) {
  fastify.addHook('onRequest', async (_request, reply) => {
    nonces.set(reply.raw, randomBytes(16).toString('base64'));
  });
  await fastify.register(helmet, {
    global: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // A refused style is reported with its first characters, so its source can be found.
        styleSrc: ["'self'", nonceSource, "'report-sample'"],
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
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'same-origin' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
  });
}
