import https from 'node:https';
import { expect } from 'vitest';
import type { TestClient } from './client.ts';

/** Where a step of a flow sent the browser. */
export function locationOf(answer: { status: number; headers: Headers }) {
  expect([302, 303], `a redirect, not ${answer.status}`).toContain(answer.status);
  return answer.headers.get('location')!;
}

/**
 * A browser's walk from `/auth/{provider}` (or a link from the connected accounts) through a
 * provider that approves at once, up to the callback URL it sends the browser back to.
 */
export async function walkToCallback(client: TestClient, provider: string, options: { link?: boolean } = {}) {
  const start = options.link
    ? await client.visit(`/auth/${provider}/link`, 'POST')
    : await client.visit(`/auth/${provider}`);
  const authorization = new URL(locationOf(start));
  const approval = await client.visit(authorization.href);
  return { authorization, callback: new URL(locationOf(approval), client.baseUrl) };
}

/** Follows the callback; answers where Wharf sent the browser (a page with its query). */
export async function finishAt(client: TestClient, callback: URL) {
  return new URL(locationOf(await client.visit(callback.href)), client.baseUrl);
}

/** The whole sign-in; answers the page Wharf lands the browser on. */
export async function signInThrough(client: TestClient, provider: string, options: { link?: boolean } = {}) {
  const { callback } = await walkToCallback(client, provider, options);
  return finishAt(client, callback);
}

/**
 * The console's "Allow access" form for repositories, posted from the page `returnTo`, walked
 * through a code host that approves at once: the authorization URL and where Wharf lands the browser.
 */
export async function grantRepositoryAccess(client: TestClient, provider: string, returnTo: string) {
  const start = await client.visit(`/auth/${provider}/repositories`, 'POST', new URLSearchParams({ returnTo }));
  const authorization = new URL(locationOf(start));
  const landing = await finishAt(client, new URL(locationOf(await client.visit(authorization.href)), client.baseUrl));
  return { authorization, landing: `${landing.pathname}${landing.search}` };
}

/** A browser that trusts `ca` approving at a provider over TLS: where the provider sends it back (the callback). */
export function approveOverTls(authorizationUrl: string, ca: string): Promise<string> {
  return new Promise((resolve, reject) => {
    https
      .get(authorizationUrl, { ca, agent: false }, (answer) => {
        answer.resume();
        resolve(answer.headers.location ?? `no redirect: ${answer.statusCode}`);
      })
      .on('error', reject);
  });
}
