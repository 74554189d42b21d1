import https from 'node:https';
import type * as AcmeClient from 'acme-client';
import axios, { type AxiosAdapter, type InternalAxiosRequestConfig } from 'axios';
import { ANSWER_TIMEOUT_MS, failureText, trustedRoots } from '../../outbound/outsideServices.ts';

type Acme = typeof AcmeClient;

/** A CA that answers 5xx or 429 is asked once more (after its Retry-After, or 2 s); Wharf's own back-off does the rest. */
const RETRIES_OF_AN_ANSWER = 1;
const RETRY_DELAY_SECONDS = 2;

/** An ACME CA that could not be reached at all: no answer, only a network or TLS failure. */
export class AcmeUnreachable extends Error {
  constructor(url: string | undefined, cause: unknown) {
    super(`could not connect to the ACME CA at ${url ?? 'its directory'}: ${failureText(cause)}`, { cause });
  }
}

/**
 * The request's failure as it came from the network, before acme-client's own handling: it retries
 * a request that got no answer five times over 75 s and then fails with a TypeError of its own
 * ("Cannot read properties of undefined (reading 'config')") that hides the cause. An error that
 * carries no axios config passes its handling untouched, so the cause reaches the log at once.
 */
function surfacingNetworkFailures(adapter: AxiosAdapter): AxiosAdapter {
  return (config: InternalAxiosRequestConfig) =>
    adapter(config).catch((error: unknown) => {
      if ((error as { response?: unknown }).response) throw error;
      throw new AcmeUnreachable(config.url, error);
    });
}

/**
 * How acme-client reaches the CA: it talks through one axios instance of its own, for the whole
 * process, so this sets that instance (an installation has one set of roots): the roots of
 * `WHARF_EXTRA_CA_CERTS` beside Node's (a private CA such as step-ca), a timeout on every request,
 * and failures that say what went wrong at once.
 */
export function configureAcmeHttp(acme: Acme, extraCaCerts: readonly string[]) {
  const ca = trustedRoots(extraCaCerts);
  const instance = acme.axios;
  instance.defaults.httpsAgent = new https.Agent({ keepAlive: true, ...(ca ? { ca } : {}) });
  instance.defaults.timeout = ANSWER_TIMEOUT_MS;
  instance.defaults.adapter = surfacingNetworkFailures(axios.getAdapter('http'));
  const settings = (instance.defaults as { acmeSettings?: Record<string, number> }).acmeSettings;
  if (settings)
    Object.assign(settings, { retryMaxAttempts: RETRIES_OF_AN_ANSWER, retryDefaultDelay: RETRY_DELAY_SECONDS });
}
