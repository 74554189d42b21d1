import { usageError } from '../failures.ts';
import { storedLogin } from '../login/credentials.ts';

/**
 * The server, site and token every command needs, from flags or else WHARF_URL, WHARF_SITE and
 * WHARF_TOKEN; the token, else, from `wharf login` to that server.
 */
export interface SiteConnection {
  url: URL;
  siteId: string;
  token: string;
  /** The token is the one `wharf login` stored: a refusal then says to log in again. */
  fromLogin: boolean;
}

export const connectionOptions = {
  url: { type: 'string' },
  site: { type: 'string' },
  token: { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

export function serverUrl(value: string | undefined): URL {
  if (!value) throw usageError('Which server? Give --url or set WHARF_URL, e.g. --url http://localhost:8080');
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {}
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') {
    throw usageError(`--url must be an http:// or https:// URL, e.g. http://localhost:8080; got ${value}`);
  }
  return url;
}

/** Flags win over the variables, and both over `wharf login`; each missing one is named with how to give it. */
export function connectionOf(
  values: { url?: string; site?: string; token?: string },
  env: Record<string, string | undefined>,
): SiteConnection {
  const url = serverUrl(values.url ?? env.WHARF_URL);
  const siteId = values.site ?? env.WHARF_SITE;
  if (!siteId) throw usageError("Which site? Give --site or set WHARF_SITE to the site's id");
  const given = values.token ?? env.WHARF_TOKEN;
  if (given) return { url, siteId, token: given, fromLogin: false };
  const login = storedLogin(env, url);
  if (!login) {
    throw usageError(
      `Which token? Give --token or set WHARF_TOKEN (a site token, or an API token with release_create), or run wharf login --url ${url.origin} once`,
    );
  }
  return { url, siteId, token: login.token, fromLogin: true };
}
