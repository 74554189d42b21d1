import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import tls from 'node:tls';
import { Agent } from 'undici';
import { z } from 'zod';

/**
 * How long any outside service (an ACME CA, the SMTP server, an OpenID Connect provider, a code
 * host, the S3 store, a hook's receiver) may take to accept a connection: a service that is down
 * or filtered fails within this, never after the system's minutes-long TCP timeout.
 */
export const CONNECT_TIMEOUT_MS = 10_000;
/** How long an outside service may take to answer a request once connected. */
export const ANSWER_TIMEOUT_MS = 10_000;

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The certificates of a PEM file (one CA or several, one after the other), each checked to be one. */
function readPemCertificates(file: string): string[] {
  const certificates = readFileSync(file, 'utf8').match(PEM_CERTIFICATE) ?? [];
  if (certificates.length === 0) throw new Error(`${file} holds no PEM certificate`);
  for (const pem of certificates) new X509Certificate(pem);
  return certificates;
}

/**
 * `WHARF_EXTRA_CA_CERTS`: a PEM file of the private CAs every outside service may be signed by,
 * read once at start (a changed file takes a restart, as every setting does); none by default.
 */
export const extraCaCertsSetting = z
  .string()
  .transform((file, ctx) => {
    try {
      return readPemCertificates(file);
    } catch (error) {
      const reason =
        (error as NodeJS.ErrnoException).code === 'ENOENT' ? `names no file: ${file}` : (error as Error).message;
      ctx.addIssue({ code: 'custom', message: `must be a PEM file of CA certificates: ${reason}` });
      return z.NEVER;
    }
  })
  .default([]);

/**
 * The roots Wharf trusts when it connects to an outside service over TLS: Node's own, plus the
 * operator's private CAs (`WHARF_EXTRA_CA_CERTS`). Undefined without any, which leaves each
 * client on Node's default store (where `NODE_EXTRA_CA_CERTS` and `--use-openssl-ca` still count).
 * Every outside client is given these, for Node's `NODE_EXTRA_CA_CERTS` reaches only the clients
 * that pass no roots of their own, and a library that does (as ACME's client must) loses it.
 */
export function trustedRoots(extraCaCerts: readonly string[]): string[] | undefined {
  return extraCaCerts.length > 0 ? [...tls.rootCertificates, ...extraCaCerts] : undefined;
}

/** `fetch` as outside clients use it (OpenID Connect, code hosts): these roots, these timeouts. */
export type OutsideFetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/**
 * A `fetch` over a connection pool of its own that trusts `trustedRoots` and gives up on a
 * service that does not connect or answer in time, and the pool's close. Node's global fetch
 * takes no roots per call: the sign-in providers are given this one (openid-client takes it as
 * its `customFetch`).
 */
export function outsideFetch(extraCaCerts: readonly string[]): { fetch: OutsideFetch; close(): Promise<void> } {
  const ca = trustedRoots(extraCaCerts);
  const dispatcher = new Agent({
    connect: { timeout: CONNECT_TIMEOUT_MS, ...(ca ? { ca } : {}) },
    headersTimeout: ANSWER_TIMEOUT_MS,
    bodyTimeout: ANSWER_TIMEOUT_MS,
  });
  return {
    // Node's fetch is undici's (6 in Node 22, 7 in Node 24), and undici 7's dispatchers take the
    // calls of both: its answers stay the global Response that libraries check for (openid-client
    // refuses undici's own class).
    fetch: (url, init) => fetch(url, { ...init, dispatcher } as RequestInit),
    close: () => dispatcher.close(),
  };
}

/**
 * What a failed call to an outside service says, with the causes below the library's words: a
 * fetch fails with "fetch failed" and hides "self-signed certificate in certificate chain" or
 * "connect ECONNREFUSED 10.0.0.5:443" in its `cause`; those are what a person can act on.
 */
export function failureText(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const { message, code } = current as { message?: unknown; code?: unknown };
    const text = typeof message === 'string' && message ? message : String(current);
    const withCode = typeof code === 'string' && !text.includes(code) ? `${code}: ${text}` : text;
    if (!parts.some((part) => part.includes(text))) parts.push(withCode);
    current = (current as { cause?: unknown }).cause;
  }
  return parts.join(': ');
}
