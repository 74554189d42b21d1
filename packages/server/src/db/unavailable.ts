/**
 * The socket's ways of saying the database server cannot be reached or went away: refused while
 * it restarts, reset or timed out when a proxy or the network drops the connection.
 */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * PostgreSQL's: 57P01–57P03 (shut down by an administrator, a crash, or not accepting connections
 * yet); class 08, the connection exceptions; 53300, too many connections.
 */
const SERVER_CODES = /^(57P0[1-3]|08[0-9A-Z]{3}|53300)$/;

/**
 * node-postgres's, which carry no code: a connection closed under a query, a client used after
 * its connection failed, a connection not made within its timeout.
 */
const CLIENT_MESSAGES =
  /^(Connection terminated|timeout expired$|timeout exceeded when trying to connect)|not queryable/;

interface Failure {
  code?: unknown;
  severity?: unknown;
  message?: unknown;
  errors?: unknown;
}

/** Whether a failure of node-postgres says the connection is gone or cannot be made. */
function isConnectionLoss(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const failure = error as Failure;
  if (typeof failure.code === 'string' && (SOCKET_CODES.has(failure.code) || SERVER_CODES.test(failure.code)))
    return true;
  // PostgreSQL ends the session after every FATAL or PANIC (a database refusing connections, its
  // shutdown): whatever the reason, the connection is gone, and the request was not wrong.
  if (failure.severity === 'FATAL' || failure.severity === 'PANIC') return true;
  if (typeof failure.message === 'string' && CLIENT_MESSAGES.test(failure.message)) return true;
  // Node's attempts to connect to each address of a name fail together in one AggregateError.
  return Array.isArray(failure.errors) && failure.errors.some(isConnectionLoss);
}

/** The database is out of reach for now; `cause` is node-postgres's own failure. */
export class DatabaseUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`The database cannot be reached: ${(cause as Error).message}`, { cause });
    this.name = 'DatabaseUnavailableError';
  }
}

/**
 * A failure of node-postgres as the rest of Wharf sees it: a connection lost or refused becomes a
 * `DatabaseUnavailableError`, any other (a constraint, a syntax error) stays as it is. Applied
 * where queries leave the pool (`pool.ts`), so that only the database's failures are read this
 * way, not another service's refused connection.
 */
export function asDatabaseFailure(error: unknown): unknown {
  return isConnectionLoss(error) && !(error instanceof DatabaseUnavailableError)
    ? new DatabaseUnavailableError(error)
    : error;
}

/**
 * Whether a failure is the database being out of reach (restarting, failing over, a connection
 * cut by it or by a proxy) rather than anything about the request: what the API answers 503
 * DATABASE_UNAVAILABLE for. SQLite's database is a file in the process, never out of reach so.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current = error as { cause?: unknown } | undefined;
  for (let depth = 0; current && depth < 5; depth++) {
    if (current instanceof DatabaseUnavailableError) return true;
    current = current.cause as typeof current;
  }
  return false;
}
