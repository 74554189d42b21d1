/**
 * Says loudly, once per run, which real services the suites will not meet: PostgreSQL runs only
 * when WHARF_TEST_DATABASE_URL names one, and a run without it must not look like a full one.
 */
export default function announceServices() {
  if (process.env.WHARF_TEST_DATABASE_URL) return;
  const line = '!'.repeat(78);
  console.warn(
    [
      line,
      '!! WHARF_TEST_DATABASE_URL is not set: every PostgreSQL suite is SKIPPED in this run.',
      '!! Set it (e.g. postgres://postgres@127.0.0.1:5432/test) to test PostgreSQL too.',
      line,
    ].join('\n'),
  );
}
