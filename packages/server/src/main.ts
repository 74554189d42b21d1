import cluster from 'node:cluster';
import { createServer } from 'node:http';
import { buildApp } from './app.ts';
import { type Running, runPrimary, runWorker, workerCount } from './cluster.ts';
import { type Config, ConfigError, loadConfig, loadDotEnv } from './config.ts';

/** One process for everything: the console, the API and the sites. */
async function runAlone(config: Config): Promise<Running> {
  const app = await buildApp(config);
  await app.fastify.listen({ port: config.port, host: config.host });
  const stopExtras: (() => Promise<void>)[] = [];
  if (config.sitesPort !== null) {
    // A port of its own for the sites, e.g. behind a load balancer that splits by host.
    const sites = createServer((req, res) => app.edge.handle(req, res));
    sites.listen(config.sitesPort, config.host);
    stopExtras.push(() => new Promise<void>((resolve) => sites.close(() => resolve())));
  }
  return {
    app,
    stop: async () => {
      await Promise.all([app.fastify.close(), ...stopExtras.map((stopExtra) => stopExtra())]);
    },
  };
}

async function main() {
  loadDotEnv();
  const config = loadConfig();
  if (cluster.isWorker) return runWorker(config);
  const workers = workerCount();
  const { app, stop } = workers > 1 ? await runPrimary(config, workers) : await runAlone(config);
  let stopping = false;
  const onSignal = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'stopping: finishing requests in flight');
    const force = setTimeout(() => process.exit(1), 10_000).unref();
    await stop();
    clearTimeout(force);
    process.exit(0);
  };
  process.on('SIGTERM', () => void onSignal('SIGTERM'));
  process.on('SIGINT', () => void onSignal('SIGINT'));
  if (config.sitesPort !== null) app.log.info(`Sites are also served on port ${config.sitesPort}`);
  const processes = workers > 1 ? ` (${workers} worker processes)` : '';
  app.log.info(`Wharf is running${processes}: console at ${config.url.origin}, sites at *.${config.sitesUrl.host}`);
}

main().catch((error) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
