import cluster from 'node:cluster';
import { buildApp } from './app.ts';
import { type Running, runPrimary, runWorker, serveConnections, workerCount } from './cluster.ts';
import { loadConfig, loadDotEnv } from './config/load.ts';
import { type Config, ConfigError } from './config/types.ts';
import { keepCompiledCode, saveCompiledCode } from './lifecycle/compiledCode.ts';
import { CLOSE_MARGIN_MS } from './lifecycle/lifecycle.ts';

/** One process for everything: the console, the API and the sites. */
async function runAlone(config: Config): Promise<Running> {
  const built = await buildApp(config);
  return { app: built.app, stop: await serveConnections(built, config) };
}

/** Drains, closes and exits; the exit is forced if closing hangs past the grace. */
async function shutDown({ app, stop }: Running, config: Config, signal: string) {
  app.log.info(
    { signal, graceSeconds: config.shutdownGraceMs / 1000 },
    'stopping: /readyz answers 503, requests in flight finish',
  );
  setTimeout(() => process.exit(1), config.shutdownGraceMs + CLOSE_MARGIN_MS).unref();
  await stop();
  process.exit(0);
}

/**
 * libuv's threads run the file system calls; a release's files are flushed to disk many at a
 * time (storage/durable.ts), and the default of 4 would keep every other read waiting behind
 * them. The pool is made at its first use, after this.
 */
const FILE_SYSTEM_THREADS = '16';

async function main() {
  process.env.UV_THREADPOOL_SIZE ??= FILE_SYSTEM_THREADS;
  if (cluster.isPrimary) keepCompiledCode();
  loadDotEnv();
  const config = loadConfig();
  if (cluster.isWorker) return runWorker(config);
  // Heard before anything starts: a stop asked while starting waits for the start, then drains.
  // A terminal's Ctrl-C reaches the process twice (from the terminal and from `npm start`): one drain.
  let requested: string | null = null;
  let stopRunning: ((signal: string) => void) | null = null;
  const onSignal = (signal: string) => {
    if (requested) return;
    requested = signal;
    stopRunning?.(signal);
  };
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
  const workers = workerCount();
  const running = workers > 1 ? await runPrimary(config, workers) : await runAlone(config);
  saveCompiledCode();
  stopRunning = (signal) => void shutDown(running, config, signal);
  if (config.sitesPort !== null) running.app.log.info(`Sites are also served on port ${config.sitesPort}`);
  if (config.https) running.app.log.info(`HTTPS on port ${config.https.port}; plain HTTP redirects to it`);
  const processes = workers > 1 ? ` (${workers} worker processes)` : '';
  running.app.log.info(
    `Wharf is running${processes}: console at ${config.url.origin}, sites at *.${config.sitesUrl.host}`,
  );
  if (requested) stopRunning(requested);
}

main().catch((error) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
