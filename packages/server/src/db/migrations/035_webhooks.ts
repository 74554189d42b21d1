import { randomBytes } from 'node:crypto';
import { type Kysely, type Migration, sql } from 'kysely';
import type { Sealer } from '../../lib/secrets.ts';

/**
 * Forges' webhooks: each connected repository gets the secret its forge signs deliveries with
 * (sealed; made here for repositories connected before), deliveries are remembered by the digest
 * of their body so a replay is refused, and a build may fetch a ref of its own (a pull request's
 * `refs/pull/{n}/head`) rather than its branch's.
 */
export function webhooks(sealer: () => Sealer): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('site_repositories').addColumn('webhook_secret_sealed', 'text').execute();
      const { rows } = await sql<{ site_id: string }>`select site_id from site_repositories`.execute(db);
      for (const { site_id } of rows) {
        const secret = sealer().seal(randomBytes(32).toString('base64url'));
        await sql`update site_repositories set webhook_secret_sealed = ${secret} where site_id = ${site_id}`.execute(
          db,
        );
      }
      await db.schema.alterTable('builds').addColumn('fetch_ref', 'text').execute();
      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('digest', 'text', (c) => c.notNull())
        .addColumn('delivery_id', 'text', (c) => c.notNull())
        .addColumn('received_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('webhook_deliveries_pk', ['site_id', 'digest'])
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_by_time')
        .on('webhook_deliveries')
        .column('received_at')
        .execute();
    },
  };
}
