/**
 * Says loudly, once per run, which real services the suites will not meet: PostgreSQL runs only
 * when WHARF_TEST_DATABASE_URL names one, the suites of several nodes only with Redis too
 * (WHARF_TEST_REDIS_URL), and a run without them must not look like a full one.
 */
export default function announceServices() {
  const missing = [
    ...(process.env.WHARF_TEST_DATABASE_URL
      ? []
      : [
          '!! WHARF_TEST_DATABASE_URL is not set: every PostgreSQL suite is SKIPPED in this run.',
          '!! Set it (e.g. postgres://postgres@127.0.0.1:5432/test) to test PostgreSQL too.',
        ]),
    ...(process.env.WHARF_TEST_REDIS_URL
      ? []
      : [
          '!! WHARF_TEST_REDIS_URL is not set: the suites of several nodes are SKIPPED in this run.',
          '!! Set it (e.g. redis://127.0.0.1:6379) to test several nodes on Redis too.',
        ]),
  ];
  if (missing.length === 0) return;
  const line = '!'.repeat(78);
  console.warn([line, ...missing, line].join('\n'));
}
