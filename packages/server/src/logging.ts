import { type DestinationStream, type LevelWithSilent, type Logger, pino } from 'pino';
import pretty from 'pino-pretty';

/**
 * Where every process logs: readable lines when standard output is a terminal (`npm start` by
 * hand), one JSON object a line otherwise, for journald and log collectors. Undefined means
 * pino's own JSON destination. Written synchronously, so the last lines before an exit are kept.
 */
export function logDestination(): DestinationStream | undefined {
  if (!process.stdout.isTTY) return undefined;
  return pretty({ colorize: true, sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'hostname' });
}

/** The logger of a process without the API (a cluster worker): the same output as the API's. */
export function createLogger(level: LevelWithSilent): Logger {
  const destination = logDestination();
  return destination ? pino({ level }, destination) : pino({ level });
}
