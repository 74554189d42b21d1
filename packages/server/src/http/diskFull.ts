// The file system's, SQLite's and PostgreSQL's (53100 disk_full) ways of saying it.
const DISK_FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL', '53100']);

/** Whether a failure is the disk (or the user's quota) running out of space. */
export function isDiskFull(error: unknown): boolean {
  let current = error as { code?: string; cause?: unknown } | undefined;
  for (let depth = 0; current && depth < 5; depth++) {
    if (current.code && DISK_FULL_CODES.has(current.code)) return true;
    current = current.cause as typeof current;
  }
  return false;
}
