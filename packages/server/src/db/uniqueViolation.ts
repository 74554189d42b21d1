/** Whether a write failed on a unique index (PostgreSQL's 23505, SQLite's constraint codes). */
export function isUniqueViolation(error: unknown): boolean {
  const code = String((error as { code?: unknown }).code ?? '');
  return code === '23505' || code.startsWith('SQLITE_CONSTRAINT');
}
