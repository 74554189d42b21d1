/**
 * Headers neither a release's `_headers` nor the console's headers may set (nor `_headers`
 * remove with `! Name`), each with why: they frame the answer or the connection, or state what
 * only the server knows. Netlify ignores the same names (framing, hop-by-hop, Date, Server, Age,
 * Alt-Svc, Allow, Accept-Ranges, Set-Cookie); Wharf adds the rest of the hop-by-hop family and
 * Location. The README's `_headers` section lists them.
 */
const reasons: Record<string, string> = {
  'transfer-encoding': 'frames the answer, which the edge does',
  'content-length': 'frames the answer, which the edge does',
  trailer: 'announces trailers, which the edge never sends',
  'content-encoding': 'names the encoding the edge negotiated with the browser',
  'content-range': 'belongs to the edge’s answers to Range requests',
  'accept-ranges': 'says whether the edge serves ranges, which the edge decides',
  connection: 'is about the connection, not the answer',
  'keep-alive': 'is about the connection, not the answer',
  upgrade: 'is about the connection, not the answer',
  te: 'is about the connection, not the answer',
  'alt-svc': 'would send browsers to another server for the whole host',
  location: 'belongs to redirects: write them in _redirects',
  allow: 'belongs to the edge’s 405 answers',
  date: 'is the edge’s clock',
  age: 'belongs to caches',
  server: 'names the server, which the edge does',
  'set-cookie': 'would give every visitor the same cookie, and one for the parent domain reaches other sites',
};

/** Why Wharf does not let a site set this header, or null when it may. */
export function reservedHeaderReason(name: string): string | null {
  const lower = name.toLowerCase();
  if (lower.startsWith('proxy-')) return 'is for proxies, not browsers';
  return reasons[lower] ?? null;
}
