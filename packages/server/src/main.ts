import { buildApp } from './app.ts';
import { ConfigError, loadConfig, loadDotEnv } from './config.ts';

async function main() {
  loadDotEnv();
  const config = loadConfig();
  const app = await buildApp(config);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'stopping: finishing requests in flight');
    const force = setTimeout(() => process.exit(1), 10_000).unref();
    await app.fastify.close();
    clearTimeout(force);
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  await app.fastify.listen({ port: config.port, host: config.host });
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
