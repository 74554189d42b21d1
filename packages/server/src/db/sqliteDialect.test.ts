import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteKysely } from './sqliteDialect.ts';

interface Tables {
  notes: {
    id: string;
    site: string;
    created: string;
    size: number;
    ratio: number;
    bytes: Buffer | null;
    tag: string | null;
  };
  note_search: { body: string; note_id: string };
}

/** Every kind of value Wharf binds, with the SQL shapes it binds them in. */
const NOTES: Tables['notes'][] = [
  { id: 'n1', site: 's1', created: '2025-01-01', size: 10, ratio: 0.5, bytes: Buffer.from([0, 1, 2]), tag: null },
  { id: 'n2', site: 's1', created: '2025-01-02', size: 20, ratio: 1.5, bytes: null, tag: 'pr-1 100%' },
  { id: 'n3', site: 's2', created: '2025-01-03', size: 30, ratio: 2.5, bytes: Buffer.from('x'), tag: 'pr-2' },
];

describe('SQLite with plans that hold for every value (+?)', () => {
  let dir: string;
  let connection: SQLite.Database;
  let stable: Kysely<Tables>;
  let plain: Kysely<Tables>;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'wharf-dialect-'));
    connection = new SQLite(path.join(dir, 'test.sqlite'));
    connection.exec(`create table notes (id text primary key, site text not null, created text not null,
      size integer not null, ratio real not null, bytes blob, tag text);
      create index notes_site_newest on notes (site, created, id);
      create virtual table note_search using fts5(body, note_id unindexed)`);
    // Both over the one connection: what differs is only how the values are written into the SQL.
    const unclosed = { prepare: connection.prepare.bind(connection), close: () => {} };
    stable = sqliteKysely<Tables>(unclosed);
    plain = new Kysely<Tables>({ dialect: new SqliteDialect({ database: unclosed }) });
    await stable.insertInto('notes').values(NOTES).execute();
    await stable
      .insertInto('note_search')
      .values([
        { body: 'Update the pricing page', note_id: 'n1' },
        { body: 'Fix the docs', note_id: 'n2' },
      ])
      .execute();
  });
  afterAll(async () => {
    connection.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('binds every value as +?', () => {
    const { sql: text, parameters } = stable
      .selectFrom('notes')
      .select('id')
      .where('site', '=', 's1')
      .limit(10)
      .compile();
    expect(text).toBe('select "id" from "notes" where "site" = +? limit +?');
    expect(parameters).toEqual(['s1', 10]);
  });

  it('stores each value as it was given, of the same type', async () => {
    const stored = await plain.selectFrom('notes').selectAll().orderBy('id').execute();
    expect(stored).toEqual(NOTES);
    // better-sqlite3 binds a JS number as a real; a column's affinity makes it an integer (above).
    const typesOf = async (db: Kysely<Tables>) =>
      (
        await sql<Record<string, string>>`select typeof(${'1'}) as text, typeof(${1}) as number,
          typeof(${Buffer.from('x')}) as blob, typeof(${null}) as absent`.execute(db)
      ).rows;
    expect(await typesOf(stable)).toEqual([{ text: 'text', number: 'real', blob: 'blob', absent: 'null' }]);
    expect(await typesOf(stable)).toEqual(await typesOf(plain));
  });

  /** The same question asked both ways answers the same rows. */
  const cases: [string, (db: Kysely<Tables>) => Promise<unknown>][] = [
    [
      'equality on text, integer, real and blob',
      (db) =>
        db
          .selectFrom('notes')
          .select('id')
          .where('site', '=', 's1')
          .where('size', '=', 20)
          .where('ratio', '=', 1.5)
          .execute(),
    ],
    [
      'a blob',
      (db) =>
        db
          .selectFrom('notes')
          .select('id')
          .where('bytes', '=', Buffer.from([0, 1, 2]))
          .execute(),
    ],
    ['is null', (db) => db.selectFrom('notes').select('id').where('tag', 'is', null).execute()],
    [
      'a number given as text, compared by the column affinity',
      (db) =>
        db
          .selectFrom('notes')
          .select('id')
          .where('size', '=', '30' as never)
          .execute(),
    ],
    [
      'in a list',
      (db) => db.selectFrom('notes').select('id').where('id', 'in', ['n1', 'n3', 'n9']).orderBy('id').execute(),
    ],
    [
      'like with an escape',
      (db) => db.selectFrom('notes').select('id').where(sql<boolean>`tag like ${'%100\\%'} escape ${'\\'}`).execute(),
    ],
    [
      'a page newest first',
      (db) =>
        db
          .selectFrom('notes')
          .select('id')
          .where('site', '=', 's1')
          .orderBy('created', 'desc')
          .orderBy('id', 'desc')
          .limit(1)
          .offset(1)
          .execute(),
    ],
    [
      'a JSON array of ids',
      (db) =>
        db
          .selectFrom('notes')
          .select('id')
          .where('id', 'in', sql<string>`(select value from json_each(${'["n2","n3"]'}))`)
          .orderBy('id')
          .execute(),
    ],
    [
      'a full-text match',
      (db) =>
        db.selectFrom('note_search').select('note_id').where(sql<boolean>`note_search match ${'"pricing"'}`).execute(),
    ],
  ];

  it.each(cases)('answers %s as a plain ? does', async (_, ask) => {
    const answer = await ask(stable);
    expect(answer).toEqual(await ask(plain));
    expect(answer).not.toEqual([]);
  });

  it('keeps the index the plain ? would use', async () => {
    const page = (db: Kysely<Tables>) =>
      db
        .selectFrom('notes')
        .select('id')
        .where('site', '=', 's1')
        .orderBy('created', 'desc')
        .orderBy('id', 'desc')
        .limit(10);
    const planOf = (db: Kysely<Tables>) => {
      const { sql: text, parameters } = page(db).compile();
      return connection.prepare(`explain query plan ${text}`).all(...parameters);
    };
    const stablePlan = planOf(stable);
    expect(JSON.stringify(stablePlan)).toContain('USING COVERING INDEX notes_site_newest (site=?)');
    expect(stablePlan).toEqual(planOf(plain));
  });
});
