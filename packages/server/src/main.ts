import { createServer } from 'node:http';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig, loadDotEnv } from './config.ts';

async function main() {
  loadDotEnv();
  const config = loadConfig();
  const app = await buildApp(config);
  let stopping = false;
  const stopExtras: (() => Promise<void>)[] = [];
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'stopping: finishing requests in flight');
    const force = setTimeout(() => process.exit(1), 10_000).unref();
    await Promise.all([app.fastify.close(), ...stopExtras.map((stopExtra) => stopExtra())]);
    clearTimeout(force);
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  await app.fastify.listen({ port: config.port, host: config.host });
  if (config.sitesPort !== null) {
    // A port of its own for the sites, e.g. behind a load balancer that splits by host.
    const sites = createServer((req, res) => app.edge.handle(req, res));
    sites.listen(config.sitesPort, config.host);
    stopExtras.push(() => new Promise<void>((resolve) => sites.close(() => resolve())));
    app.log.info(`Sites are also served on port ${config.sitesPort}`);
  }
  app.log.info(`Wharf is running: console at ${config.url.origin}, sites at *.${config.sitesUrl.host}`);
}

main().catch((error) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
