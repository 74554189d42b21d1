import cluster from 'node:cluster';
import { createHash } from 'node:crypto';
import SQLite from 'better-sqlite3';
import Fastify from 'fastify';
import pg from 'pg';

/**
 * bench/api's baseline: a minimal Fastify process per core (node:cluster, the kernel handing out
 * connections) that answers what the bench asks of Wharf with the same statements on the same
 * database and nothing else: a trivial route, and a site's releases page, which reads the session
 * by its cookie, the site, the page of releases newest first (the columns Wharf reads), the list's
 * length as Wharf keeps it and the branches serving the page, and answers what Wharf answers, field
 * for field (the bench compares the two). It checks no membership, validates nothing, writes no log
 * and sets no security header: it is what the queries and the answer cost, so Wharf/bare is the
 * price of everything else.
 *
 * Run by run.ts: `node bare.ts` with BARE_PORT, BARE_PROCESSES and BARE_SQLITE (a file) or
 * BARE_DATABASE_URL (PostgreSQL, with its search_path in the URL's options), and BARE_SITES_URL
 * (Wharf's WHARF_SITES_URL).
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
  // As Wharf reads them (db/connection.ts): PostgreSQL's bigints as numbers.
  pg.types.setTypeParser(20, (value) => Number(value));
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

const RELEASE_PAGE = `select id, site_id, name, file_count, total_size, rule_problems, created_at, slug, source,
  uploader, upload_ms, new_files, new_bytes, password_hash from releases
  where site_id = ? order by created_at desc, id desc limit ? offset ?`;

type Row = Record<string, unknown>;

/** Where sites are served, as Wharf's WHARF_SITES_URL says (BARE_SITES_URL): the answer's addresses. */
const sitesUrl = new URL(process.env.BARE_SITES_URL ?? 'http://localhost');
const siteAddress = (label: string) => `${sitesUrl.protocol}//${label}.${sitesUrl.host}/`;
const nullableNumber = (value: unknown) => (value === null ? null : Number(value));
const parsed = (value: unknown) => (value === null ? null : JSON.parse(String(value)));

/**
 * A release as Wharf's answer has it, field for field (the bench compares the two answers): its
 * addresses (a branch's as Wharf's default hosts make them), the JSON columns parsed, the numbers
 * made numbers. Forms are left empty: the bench's site has none.
 */
function toRelease(site: Row, row: Row, serving: Row[]) {
  return {
    _id: row.id,
    siteId: row.site_id,
    name: row.name,
    date: row.created_at,
    slug: row.slug,
    url: siteAddress(`${row.slug}--${site.name}`),
    source: parsed(row.source) ?? {},
    uploader: parsed(row.uploader),
    uploadMs: nullableNumber(row.upload_ms),
    newFiles: nullableNumber(row.new_files),
    newSize: nullableNumber(row.new_bytes),
    forms: [],
    branches: serving
      .filter((branch) => branch.release_id === row.id)
      .map((branch) => ({
        _id: branch.id,
        name: branch.name,
        url: siteAddress(branch.id === site.main_branch_id ? String(site.name) : `${branch.slug}.${site.name}`),
        since: branch.set_at,
      })),
    fileCount: row.file_count,
    size: Number(row.total_size),
    ruleProblems: parsed(row.rule_problems),
    hasPassword: row.password_hash !== null,
  };
}

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
      const site = await db.one('select id, name, main_branch_id from sites where id = ?', [request.params.siteId]);
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
              `select b.id, b.name, b.slug, b.release_id, br.set_at from branches b
                left join branch_releases br on br.branch_id = b.id and br.release_id = b.release_id
                where b.release_id in (${ids.map(() => '?').join(', ')}) order by b.name`,
              ids,
            );
      return { items: rows.map((row) => toRelease(site, row, serving)), count: Number(count?.n ?? 0) };
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
