import type { BaseLogger } from 'pino';

/** Where the edge reports what went wrong: the API's logger, or a worker's own. */
export type EdgeLog = Pick<BaseLogger, 'error' | 'warn' | 'info'>;
