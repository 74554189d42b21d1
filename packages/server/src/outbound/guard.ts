import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { Duplex } from 'node:stream';
import type { PrivateAllowList } from '../config/types.ts';
import { refusedRange } from './addresses.ts';
import { trustedRoots } from './outsideServices.ts';
import { listsAddress, listsName, reachableByName } from './privateAllowList.ts';
import { upstreamUrlProblem } from './upstreamUrls.ts';

/** A connection the guard would not open: the host asked for, the address it is, and why. */
export class OutboundRefused extends Error {
  readonly code = 'UPSTREAM_NOT_ALLOWED';

  constructor(
    readonly host: string,
    readonly address: string,
    readonly range: string,
  ) {
    super(`${host === address ? address : `${host} (${address})`} is ${range}`);
  }
}

/** Where refusals are logged; the API's and the workers' pino loggers fit. */
export interface OutboundLog {
  warn(details: Record<string, unknown>, message: string): void;
}

type ConnectCallback = (err: Error | null, stream: Duplex) => void;

export interface OutboundGuardOptions {
  /** `WHARF_ALLOW_PRIVATE_UPSTREAMS=on`: every address may be reached. */
  allowPrivate: boolean;
  /** The private hosts and networks this kind of connection may reach all the same. */
  allowList: PrivateAllowList;
  log: OutboundLog;
  /** `WHARF_EXTRA_CA_CERTS`: the operator's private CAs an upstream or a receiver may be signed by. */
  extraCaCerts: readonly string[];
}

/**
 * The gate for every connection Wharf opens on a tenant's behalf: one guard for reverse-proxy
 * rules, one for hook deliveries, each with its operator's allow-list. Its agents check the address
 * each socket actually connects to, after DNS, so a name that resolves to a public address when the
 * rule is saved and to 127.0.0.1 later (DNS rebinding) is refused all the same. Callers send their
 * requests with `sendOutbound` (request.ts), which uses `agentFor(url)`, and check URLs people save
 * with `problemWithUrl`.
 */
export class OutboundGuard {
  readonly httpAgent: http.Agent;
  readonly httpsAgent: https.Agent;
  private readonly allowPrivate: boolean;
  private readonly allowList: PrivateAllowList;
  private readonly log: OutboundLog;

  constructor(options: OutboundGuardOptions) {
    this.allowPrivate = options.allowPrivate;
    this.allowList = options.allowList;
    this.log = options.log;
    this.httpAgent = new GuardedHttpAgent(this);
    this.httpsAgent = new GuardedHttpsAgent(this, trustedRoots(options.extraCaCerts));
  }

  agentFor(url: URL): http.Agent {
    return url.protocol === 'https:' ? this.httpsAgent : this.httpAgent;
  }

  /**
   * Why a URL someone saves may not be used as an upstream, or null; no DNS is asked (see
   * upstreamUrls.ts). A listed name, or an address in a listed network, is taken as it is.
   */
  problemWithUrl(url: string): string | null {
    if (this.allowPrivate) return null;
    const host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
    if (listsName(this.allowList, host) || listsAddress(this.allowList, host)) return null;
    return upstreamUrlProblem(url, this.allowList.setting);
  }

  /** `dns.lookup` that fails with `OutboundRefused` when any address of the name is refused. */
  readonly lookup: LookupFunction = (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '');
      // Refusing the name when any of its addresses is refused: the socket may try each in turn.
      for (const { address } of addresses) {
        const refusal = this.refusalOf(hostname, address);
        if (refusal) return callback(refusal, '');
      }
      const [first] = addresses;
      if (options.all) callback(null, addresses);
      else if (first) callback(null, first.address, first.family);
      else callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
    });
  };

  /**
   * The refusal of a connection before it is opened: an IP literal is checked here because Node
   * connects to it without calling `lookup`; a local socket path is never a tenant's upstream.
   */
  refusalOfTarget(options: http.ClientRequestArgs): OutboundRefused | null {
    const host = options.host ?? options.hostname ?? 'localhost';
    if (options.socketPath || (options as { path?: string | null }).path)
      return this.refused(new OutboundRefused(host, options.socketPath ?? 'a local socket', 'a local socket'));
    return isIP(host) ? this.refusalOf(host, host) : null;
  }

  /**
   * Closes the idle kept-alive connections to one origin: once one was closed under a request,
   * those of its age are suspect, and a request sent again must go out on a new one.
   */
  dropIdleConnections(url: URL) {
    const port = url.port || (url.protocol === 'https:' ? '443' : '80');
    // The agents key their connections by `host:port:…` (Node's Agent.getName), the host without brackets.
    const origin = `${url.hostname.replace(/^\[(.*)\]$/, '$1')}:${port}:`;
    const { freeSockets } = this.agentFor(url);
    for (const [name, sockets] of Object.entries(freeSockets))
      if (name.startsWith(origin)) for (const socket of sockets ?? []) socket.destroy();
  }

  /** Closes the idle kept-alive connections (at shutdown). */
  close() {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  /**
   * The address connected to decides, whatever the URL said: it may be in a listed network, or be
   * the address of a listed name, except the addresses no name may lead to (cloud metadata and
   * the rest of link-local: see privateAllowList.ts).
   */
  private refusalOf(host: string, address: string): OutboundRefused | null {
    if (this.allowPrivate) return null;
    const range = refusedRange(address);
    if (!range || listsAddress(this.allowList, address)) return null;
    if (listsName(this.allowList, host) && reachableByName(address)) return null;
    return this.refused(new OutboundRefused(host, address, range));
  }

  private refused(refusal: OutboundRefused) {
    this.log.warn(
      { host: refusal.host, address: refusal.address, range: refusal.range },
      `outbound connection refused: ${refusal.message} (not in ${this.allowList.setting}, and WHARF_ALLOW_PRIVATE_UPSTREAMS is off)`,
    );
    return refusal;
  }
}

/**
 * Kept-alive connections were checked when they were opened; a reused one goes to the same address.
 * One idle for 4 s is closed here (undici's default), before the servers most often found upstream
 * close theirs (Node's and Apache's 5 s): a server that closes an idle connection as it is reused
 * costs a retry (request.ts). A server announcing a shorter `Keep-Alive: timeout` is believed.
 */
const AGENT_OPTIONS = { keepAlive: true, timeout: 4_000 };

class GuardedHttpAgent extends http.Agent {
  constructor(private readonly guard: OutboundGuard) {
    super(AGENT_OPTIONS);
  }

  override createConnection(options: http.ClientRequestArgs, callback?: ConnectCallback) {
    return guardedConnection(this.guard, options, callback, (checked) => super.createConnection(checked, callback));
  }
}

class GuardedHttpsAgent extends https.Agent {
  constructor(
    private readonly guard: OutboundGuard,
    ca: string[] | undefined,
  ) {
    super({ ...AGENT_OPTIONS, ...(ca ? { ca } : {}) });
  }

  override createConnection(options: https.RequestOptions, callback?: ConnectCallback) {
    return guardedConnection(this.guard, options, callback, (checked) => super.createConnection(checked, callback));
  }
}

/** Opens the connection with the guard's `lookup`, or fails the request with the refusal. */
function guardedConnection<O extends http.ClientRequestArgs>(
  guard: OutboundGuard,
  options: O,
  callback: ConnectCallback | undefined,
  open: (options: O) => Duplex | null | undefined,
): Duplex | null | undefined {
  const refusal = guard.refusalOfTarget(options);
  if (!refusal) return open({ ...options, lookup: guard.lookup });
  if (!callback) throw refusal;
  // The agent hands this error to the request, which emits it as its 'error' on the next tick.
  callback(refusal, undefined as unknown as Duplex);
  return undefined;
}
