import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import path from 'node:path';
import type { Config } from '../config.ts';
import { openDb } from '../db/connection.ts';
import { FileBlobStore } from '../storage/blobStore.ts';
import { Edge } from './edge.ts';
import { PrimaryForwarder } from './forwardToPrimary.ts';

const REFRESH_EVERY_MS = 1_000;
/** How long a stopping worker lets requests in flight finish (long polls last longer) before it cuts them. */
const STOP_GRACE_MS = 5_000;

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
 * the API go on to the primary process, and alone on the sites port when there is one.
 */
export async function startEdgeWorker(config: Config, primarySocket: string, onError: (error: unknown) => void) {
  const db = openDb({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  const blobs = new FileBlobStore(path.join(config.dataDir, 'blobs'));
  const edge = new Edge(db, config, (key) => blobs.pathOf(key));
  await edge.sync.start();
  const forwarder = new PrimaryForwarder(primarySocket);
  const shared = createServer((req, res) => (edge.handles(req) ? edge.handle(req, res) : forwarder.request(req, res)));
  shared.on('upgrade', (req, socket, head) => forwarder.upgrade(req, socket as Socket, head));
  const servers = [shared];
  await listen(shared, config.port, config.host);
  if (config.sitesPort !== null) {
    const sites = createServer((req, res) => edge.handle(req, res));
    servers.push(sites);
    await listen(sites, config.sitesPort, config.host);
  }
  const refresh = setInterval(() => void edge.refresh().catch(onError), REFRESH_EVERY_MS);
  return {
    edge,
    /** Stops taking connections and finishes the requests in flight. */
    async close() {
      clearInterval(refresh);
      const cut = setTimeout(() => {
        for (const server of servers) server.closeAllConnections();
      }, STOP_GRACE_MS);
      await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
      clearTimeout(cut);
      forwarder.close();
      await db.destroy();
    },
  };
}
