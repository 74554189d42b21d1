import { type Kysely, sql } from 'kysely';
import { hashPassword } from './frozen.ts';

interface StoredBlock {
  set: [string, string][];
  basicAuth?: { user: string; hash: string }[];
}

/**
 * `Basic-Auth` in `_headers` is a password prompt now, its passwords hashed at upload. Releases
 * stored before kept it as a header, passwords in clear: each `user:password` becomes the user
 * with the hash of its password, so the same people still get in and no rule holds a password.
 */
export async function up(db: Kysely<unknown>) {
  const { rows } = await sql<{ id: string; rules: string }>`
    select id, rules from releases where lower(rules) like '%basic-auth%'`.execute(db);
  for (const row of rows) {
    const rules = JSON.parse(row.rules) as { headers: StoredBlock[] };
    for (const block of rules.headers) {
      const credentials = block.set.filter(([name]) => name.toLowerCase() === 'basic-auth');
      if (credentials.length === 0) continue;
      block.set = block.set.filter(([name]) => name.toLowerCase() !== 'basic-auth');
      const pairs = credentials.flatMap(([, value]) => value.split(/\s+/).filter((pair) => pair.indexOf(':') > 0));
      const users = await Promise.all(
        pairs.map(async (pair) => {
          const colon = pair.indexOf(':');
          return { user: pair.slice(0, colon), hash: await hashPassword(pair.slice(colon + 1)) };
        }),
      );
      block.basicAuth = [...(block.basicAuth ?? []), ...users];
    }
    await sql`update releases set rules = ${JSON.stringify(rules)} where id = ${row.id}`.execute(db);
  }
}
