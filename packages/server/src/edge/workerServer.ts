import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import type { Config } from '../config/types.ts';
import { openDb } from '../db/connection.ts';
import { createHttpServer } from '../http/httpServer.ts';
import { misdirected, servedByEveryNode } from '../http/misdirected.ts';
import { openCounters } from '../lib/counters.ts';
import { installationTag } from '../lib/secretCheck.ts';
import { resolveSecret, Sealer } from '../lib/secrets.ts';
import { answerHealth, sitesPortListener } from '../lifecycle/health.ts';
import { Lifecycle } from '../lifecycle/lifecycle.ts';
import { nodeReadiness } from '../lifecycle/readiness.ts';
import { NodeMetrics } from '../metrics/nodeMetrics.ts';
import { siteRequestTimer } from '../metrics/requestDurations.ts';
import { OutboundGuard } from '../outbound/guard.ts';
import { openBlobStore } from '../storage/openBlobStore.ts';
import { registerCertificateMetrics } from '../tls/certificateMetrics.ts';
import { createTlsFront, httpsListener, listenTls } from '../tls/https.ts';
import { httpChallengesFor, startTlsSources, withAcmeChallenges } from '../tls/sources.ts';
import { Edge } from './edge.ts';
import { PrimaryForwarder } from './forwardToPrimary.ts';

function listen(server: Server, port: number, host: string) {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * The sites in a cluster worker: the edge on the shared port, where requests for the console or
 * the API go on to the primary process, and alone on the sites port when there is one. The
 * worker answers the health checks itself: they tell about the process holding the connection.
 */
export async function startEdgeWorker(config: Config, primarySocket: string, log: Logger) {
  const db = openDb({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, applicationName: 'wharf edge worker' });
  const blobs = openBlobStore(config, log);
  const outbound = new OutboundGuard({
    allowPrivate: config.allowPrivateUpstreams,
    allowList: config.proxyAllowedPrivate,
    extraCaCerts: config.extraCaCerts,
    log,
  });
  // Email forms queue sealed mail jobs; the primary's job runner finds them within its poll.
  const secret = resolveSecret(config.secret, config.dataDir);
  const sealer = new Sealer(secret);
  const counters = await openCounters(config.redisUrl, installationTag(secret), log);
  // This worker's figures: its primary adds them to its own for the node's /metrics.
  const metrics = new NodeMetrics();
  const edge = new Edge(db, config, { blobs, outbound, counters, log, sealer, timeRequest: siteRequestTimer(metrics) });
  const lifecycle = new Lifecycle();
  lifecycle.readiness = nodeReadiness(config, { db, counters, blobs, edge });
  if (config.roles.edge) await edge.load();
  const forwarder = new PrimaryForwarder(primarySocket, config.trustProxy, log);
  const challenges = httpChallengesFor(config, db);
  const shared = createHttpServer(
    lifecycle.requestListener(
      httpsListener(
        config.https,
        withAcmeChallenges(challenges, (req, res) => {
          if (edge.handles(req)) {
            if (config.roles.edge) edge.handle(req, res);
            else misdirected(res, 'sites');
          } else if (answerHealth(req, res, lifecycle)) return;
          else if (config.roles.api || servedByEveryNode(req)) forwarder.request(req, res);
          else misdirected(res, 'the console and the API');
        }),
      ),
    ),
  );
  shared.on('upgrade', (req, socket, head) => forwarder.upgrade(req, socket as Socket, head));
  lifecycle.adopt(shared);
  await listen(shared, config.port, config.host);
  // Every worker also takes TLS connections; the ticket keys come from the secret, so any worker resumes a session.
  if (config.https) {
    const tls = createTlsFront(config.https, secret, shared, log);
    // Each worker orders a certificate it lacks at a host's first handshake; the primary renews.
    startTlsSources(config, { db, sealer, secret, tls, hosts: edge.table, challenges, log });
    registerCertificateMetrics(metrics.registry, tls.certificates);
    lifecycle.adopt(tls);
    await listenTls(tls, config.https.port, config.host);
  }
  if (config.sitesPort !== null) {
    const sites = createHttpServer(sitesPortListener(edge, lifecycle));
    lifecycle.adopt(sites);
    await listen(sites, config.sitesPort, config.host);
  }
  lifecycle.serving();
  return {
    edge,
    metrics,
    /** Drains (see Lifecycle.drain): requests in flight finish within the shutdown grace. */
    async close() {
      const cut = await lifecycle.drain(config.shutdownGraceMs);
      if (cut > 0) log.warn({ cut }, 'cut the requests still in flight at the end of the shutdown grace');
      forwarder.close();
      outbound.close();
      await counters.close();
      await db.destroy();
    },
  };
}
