import { isIPv4 } from 'node:net';
import { refusedRange } from './addresses.ts';

// Names that by standard only ever mean the server's own machine or network: `localhost`
// (RFC 6761), mDNS `.local` (RFC 6762), `.home.arpa` (RFC 8375) and `.internal` (ICANN, private use).
const LOCAL_SUFFIXES = ['localhost', 'local', 'home.arpa', 'internal'];

const hint = (setting: string) =>
  `Wharf does not connect to its own machine or network for a site unless its operator lists the host in ${setting} or sets WHARF_ALLOW_PRIVATE_UPSTREAMS=on`;

function localNameProblem(name: string): string | null {
  if (LOCAL_SUFFIXES.some((suffix) => name === suffix || name.endsWith(`.${suffix}`)))
    return `${name} names the server's own machine or network`;
  // `db` or `redis`: found through the server's search domains, hosts file or container network.
  if (!name.includes('.')) return `${name} is a local name (a public host name has a dot)`;
  return null;
}

/**
 * Why a URL saved as an upstream is refused, or null. Addresses are judged in whatever notation the
 * URL parser accepts (`2130706433`, `0x7f.1` and `[::ffff:127.0.0.1]` come out of it as the
 * addresses they are), and local names by their standard suffixes.
 *
 * Other names are not resolved here, on purpose: the answer of the moment proves nothing (DNS may
 * change before the first request, which is what rebinding does), the guard checks every address
 * when it connects anyway, and resolving on save would let any site member probe which names the
 * server's internal DNS knows.
 */
export function upstreamUrlProblem(value: string, allowListSetting: string): string | null {
  const hostname = new URL(value).hostname;
  let problem: string | null;
  if (hostname.startsWith('[')) {
    const address = hostname.slice(1, -1);
    const range = refusedRange(address);
    problem = range && `${address} is ${range}`;
  } else if (isIPv4(hostname)) {
    const range = refusedRange(hostname);
    problem = range && `${hostname} is ${range}`;
  } else {
    problem = localNameProblem(hostname.replace(/\.$/, ''));
  }
  return problem && `${problem}; ${hint(allowListSetting)}`;
}
