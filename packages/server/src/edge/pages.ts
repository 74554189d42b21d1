import type { ServerResponse } from 'node:http';

function page(title: string, text: string) {
  return Buffer.from(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>body{font-family:system-ui,sans-serif;display:grid;place-items:center;min-height:90vh;margin:0;color:#222;background:#fafafa}
main{text-align:center;padding:2rem}h1{font-size:1.5rem;margin:0 0 .5rem}p{color:#666;margin:0}
@media (prefers-color-scheme:dark){body{background:#1a1b1e;color:#eee}p{color:#aaa}}</style></head>
<body><main><h1>${title}</h1><p>${text}</p></main></body></html>`);
}

const pages = {
  notFound: page('Not found', 'There is nothing at this address.'),
  nothingDeployed: page('Nothing deployed yet', 'This site exists, but no release has been deployed to it yet.'),
  badGateway: page('Bad gateway', 'The upstream server of this path did not answer.'),
  unauthorized: page('Password required', 'This site is protected by a password.'),
  badRequest: page('Bad request', 'The address could not be understood.'),
  tooManyRequests: page('Too many attempts', 'Wait a minute before trying again.'),
  unavailable: page('Temporarily unavailable', 'This page cannot be served just now; try again in a few seconds.'),
  preconditionFailed: page('Changed meanwhile', 'This file is no longer the version the request was made for.'),
  storeUnavailable: page('Try again shortly', 'This file cannot be read right now. Try again in a few seconds.'),
};

export type PageName = keyof typeof pages;

/** The plain pages the edge answers itself with, small and readable in light and dark; answers the bytes sent. */
export function sendPage(res: ServerResponse, status: number, name: PageName, headers: Record<string, string> = {}) {
  const body = pages[name];
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': String(body.length),
    'cache-control': 'no-store',
    ...headers,
  });
  if (res.req.method === 'HEAD') {
    res.end();
    return 0;
  }
  res.end(body);
  return body.length;
}
