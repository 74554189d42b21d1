import type { Domain } from '@wharf/contract';

/**
 * The custom domains a process serves, as TLS asks about them to pick a saved certificate for a
 * handshake. The edge's routing table answers it: it holds every verified domain, and a saved
 * certificate reaches every worker with its site's reload.
 */
export interface HostDirectory {
  /** The custom domain a host is served under: the domain itself, or its parent when it exposes branches. */
  domainOf(host: string): Domain | null;
  /** Every verified custom domain. */
  domains(): Iterable<Domain>;
}
