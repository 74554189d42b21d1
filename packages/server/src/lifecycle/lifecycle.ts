import type { RequestListener } from 'node:http';
import type { Socket } from 'node:net';
import type { Readiness } from './readiness.ts';

export type Phase = 'starting' | 'serving' | 'draining';

/**
 * How long closing may take after the shutdown grace (the database, the last metrics) before the
 * exit is forced: a stop takes the grace and this at most, which a supervisor's stop timeout
 * covers (deploy/systemd).
 */
export const CLOSE_MARGIN_MS = 10_000;

/** A server a drain closes: an HTTP server, or the TLS front (HTTP/2 and HTTP/1.1). */
export interface Drainable {
  close(): unknown;
  closeAllConnections(): void;
  /** When draining starts (the TLS front tells its HTTP/2 clients to go elsewhere). */
  startDraining?(): void;
}

/**
 * A process's phase (what `/readyz` tells a load balancer) and the requests it has in flight on
 * all its HTTP servers (what a drain waits for).
 */
export class Lifecycle {
  phase: Phase = 'starting';
  /** What `/readyz` checks besides the phase: whether the node can serve its roles (see Readiness). */
  readiness: Readiness | null = null;
  private readonly servers = new Set<Drainable>();
  private readonly drainHooks: (() => void)[] = [];
  private inFlight = 0;
  /** Requests under way per connection (more than one when a client pipelines). */
  private readonly active = new WeakMap<Socket, number>();
  /** Keep-alive connections between two requests: a drain closes them. A new connection is not one. */
  private readonly idle = new Set<Socket>();
  private settle: (() => void) | null = null;

  /** Wraps a server's request listener: counts each request until its answer ends. */
  requestListener(listener: RequestListener): RequestListener {
    return (req, res) => {
      const socket = req.socket;
      const active = this.active.get(socket);
      if (active === undefined) socket.once('close', () => this.idle.delete(socket));
      // Only a connection between two answers is idle (see finished).
      else if (active === 0) this.idle.delete(socket);
      this.active.set(socket, (active ?? 0) + 1);
      this.inFlight++;
      res.on('close', () => this.finished(socket));
      // A balancer that has not noticed the 503 of /readyz yet is still served, one request a connection.
      if (this.phase === 'draining') res.setHeader('connection', 'close');
      listener(req, res);
    };
  }

  /** A server whose connections a drain closes; its listener comes from `requestListener`. */
  adopt(server: Drainable) {
    this.servers.add(server);
  }

  /** Runs when draining starts: long-lived connections (real-time sockets) go elsewhere then. */
  onDrain(hook: () => void) {
    this.drainHooks.push(hook);
  }

  serving() {
    if (this.phase === 'starting') this.phase = 'serving';
  }

  /** `/readyz` answers 503 from now on, and connections close after their answer. */
  startDraining() {
    if (this.phase === 'draining') return;
    this.phase = 'draining';
    for (const hook of this.drainHooks) hook();
    for (const server of this.servers) server.startDraining?.();
    for (const socket of this.idle) socket.end();
    this.idle.clear();
  }

  /**
   * Stops gracefully: starts draining, lets the requests in flight finish (a long download too),
   * then closes the servers; whatever still runs after `graceMs` is cut. Answers how many were cut.
   */
  async drain(graceMs: number): Promise<number> {
    this.startDraining();
    if (this.inFlight > 0) {
      let grace: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        this.settle = resolve;
        grace = setTimeout(resolve, graceMs);
      });
      clearTimeout(grace);
    }
    const cut = this.inFlight;
    for (const server of this.servers) {
      server.close();
      server.closeAllConnections();
    }
    return cut;
  }

  private finished(socket: Socket) {
    this.inFlight--;
    const active = (this.active.get(socket) ?? 1) - 1;
    this.active.set(socket, active);
    if (active === 0 && !socket.destroyed) {
      // A connection whose answers started before the drain closes after them rather than wait for more.
      if (this.phase === 'draining') socket.end();
      else this.idle.add(socket);
    }
    if (this.phase === 'draining' && this.inFlight === 0) this.settle?.();
  }
}
