import cluster from 'node:cluster';
import { createHash } from 'node:crypto';
import SQLite from 'better-sqlite3';
import Fastify from 'fastify';
import pg from 'pg';

/**
 * bench/api's baseline: a minimal Fastify process per core (node:cluster, the kernel handing out
 * connections) that answers what the bench asks of Wharf with the same statements on the same
 * database and nothing else: a trivial route, and a site's releases page, which reads the session
 * by its cookie, the site, the page of releases newest first, the list's length as Wharf keeps it
 * and the branches serving the page. It checks no membership, writes no log and sets no security header: it is
 * what the queries and a JSON answer cost, so Wharf/bare is the price of everything else.
 *
 * Run by run.ts: `node bare.ts` with BARE_PORT, BARE_PROCESSES and BARE_SQLITE (a file) or
 * BARE_DATABASE_URL (PostgreSQL, with its search_path in the URL's options).
 */

interface Statements {
  one(sql: string, values: unknown[]): Promise<Record<string, unknown> | undefined>;
  all(sql: string, values: unknown[]): Promise<Record<string, unknown>[]>;
}

/** Prepared once per text, as Wharf's own connection keeps them (SQLite), or pooled (PostgreSQL). */
function openStatements(): Statements {
  const file = process.env.BARE_SQLITE;
  if (file) {
    const db = new SQLite(file, { readonly: true });
    const prepared = new Map<string, SQLite.Statement>();
    const statement = (sql: string) => {
      // As Wharf binds its values (db/sqliteDialect.ts): with a plain ?, SQLite plans the page's
      // statement again on every run, which would make this baseline slower than it need be.
      const found = prepared.get(sql) ?? db.prepare(sql.replace(/\?/g, '+?'));
      prepared.set(sql, found);
      return found;
    };
    return {
      one: async (sql, values) => statement(sql).get(...values) as Record<string, unknown> | undefined,
      all: async (sql, values) => statement(sql).all(...values) as Record<string, unknown>[],
    };
  }
  const pool = new pg.Pool({ connectionString: process.env.BARE_DATABASE_URL, max: 10 });
  const numbered = (sql: string) => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${++n}`);
  };
  return {
    one: async (sql, values) => (await pool.query(numbered(sql), values)).rows[0],
    all: async (sql, values) => (await pool.query(numbered(sql), values)).rows,
  };
}

const RELEASE_PAGE = `select id, name, file_count, total_size, created_at from releases
  where site_id = ? order by created_at desc, id desc limit ? offset ?`;

function serve() {
  const db = openStatements();
  const app = Fastify();
  app.get('/api/v1/system/info', async () => ({ name: 'bare', version: '0' }));
  app.get<{ Params: { siteId: string }; Querystring: { page?: string; size?: string } }>(
    '/api/v1/sites/:siteId/releases',
    async (request, reply) => {
      const cookie = /(?:^|;\s*)wharf_session=([^;]+)/.exec(request.headers.cookie ?? '')?.[1];
      const hash = cookie ? createHash('sha256').update(cookie).digest('base64url') : '';
      const session = await db.one('select user_id, expires_at from sessions where id_hash = ?', [hash]);
      if (!session || String(session.expires_at) <= new Date().toISOString()) return reply.code(401).send({});
      const site = await db.one('select id, name from sites where id = ?', [request.params.siteId]);
      if (!site) return reply.code(404).send({});
      const size = Number(request.query.size ?? 10);
      const page = Number(request.query.page ?? 0);
      const [rows, count] = await Promise.all([
        db.all(RELEASE_PAGE, [site.id, size, page * size]),
        // The list's length as Wharf keeps it (list_counts, kept by triggers).
        db.one("select total as n from list_counts where list = 'releases' and owner_id = ?", [site.id]),
      ]);
      const ids = rows.map((row) => row.id);
      const serving =
        ids.length === 0
          ? []
          : await db.all(
              `select name, release_id from branches where release_id in (${ids.map(() => '?').join(', ')})`,
              ids,
            );
      return {
        items: rows.map((row) => ({
          ...row,
          branches: serving.filter((b) => b.release_id === row.id).map((b) => b.name),
        })),
        count: Number(count?.n ?? 0),
      };
    },
  );
  return app.listen({ port: Number(process.env.BARE_PORT), host: '127.0.0.1' });
}

if (cluster.isPrimary) {
  const processes = Number(process.env.BARE_PROCESSES ?? 1);
  // As Wharf's workers take their connections: the kernel hands them out, no primary in between.
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  if (processes === 1) await serve();
  else for (let i = 0; i < processes; i++) cluster.fork();
} else {
  await serve();
}
