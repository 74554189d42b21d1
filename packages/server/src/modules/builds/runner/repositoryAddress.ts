import type { OutboundGuard } from '../../../outbound/guard.ts';
import { OutboundRefused } from '../../../outbound/guard.ts';
import { BuildStepFailed } from './stepFailed.ts';

/** The host a clone URL connects to: `https://host/…`, `ssh://user@host:port/…` or `user@host:path`. */
export function repositoryHost(url: string): string {
  const scpLike = /^[^@/]+@([^:/]+):/.exec(url);
  if (scpLike && !url.includes('://')) return scpLike[1]!;
  return new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * Refuses a repository whose host is, or resolves to, an address a tenant may not make Wharf
 * connect to (loopback, private networks, cloud metadata) unless the operator listed it in
 * `WHARF_BUILD_ALLOWED_PRIVATE`: a clone is a connection made on a tenant's behalf, as a hook is.
 * Answers the addresses it checked: git connects to those (checkout.ts), never to what a second
 * lookup of the name answers, which a name rebound between the two could point anywhere.
 */
export async function mustReachRepository(guard: OutboundGuard, url: string): Promise<string[]> {
  const host = repositoryHost(url);
  return new Promise<string[]>((resolve, reject) => {
    guard.lookup(host, { all: true }, (error, addresses) => {
      if (error instanceof OutboundRefused)
        reject(
          new BuildStepFailed(
            `The repository's host ${error.message}: Wharf does not connect there for a build unless the operator allows it (WHARF_BUILD_ALLOWED_PRIVATE)`,
          ),
        );
      else if (error) reject(new BuildStepFailed(`The repository's host ${host} could not be found: ${error.message}`));
      else resolve(typeof addresses === 'string' ? [addresses] : addresses.map(({ address }) => address));
    });
  });
}
