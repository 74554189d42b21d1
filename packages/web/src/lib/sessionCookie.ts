/**
 * Whether this page's request carried a session cookie, as the server wrote it into the page
 * (serveConsole.ts): `absent` means signed out for certain, so the console need not ask (a 401
 * would show as an error in the browser's console). Undefined when no server wrote it (`vite dev`).
 */
export const sessionCookieAtLoad = document
  .querySelector<HTMLMetaElement>('meta[name="wharf-session-cookie"]')
  ?.content.match(/^(?:present|absent)$/)?.[0] as 'present' | 'absent' | undefined;
