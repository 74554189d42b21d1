import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { type Generated, Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withStatementCache } from './statementCache.ts';

interface Tables {
  notes: { id: Generated<number>; text: string };
}

describe('SQLite statements kept prepared', () => {
  let dir: string;
  let connection: SQLite.Database;
  let prepared: string[];

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'wharf-statements-'));
    connection = new SQLite(path.join(dir, 'test.sqlite'));
    connection.exec('create table notes (id integer primary key, text text not null)');
    prepared = [];
    // Counts what SQLite is really asked to prepare; the statements themselves are SQLite's.
    const prepare = connection.prepare.bind(connection);
    connection.prepare = ((source: string) => {
      prepared.push(source);
      return prepare(source);
    }) as typeof connection.prepare;
  });
  afterEach(async () => {
    if (connection.open) connection.close();
    await rm(dir, { recursive: true, force: true });
  });

  const kysely = (limit?: number) =>
    new Kysely<Tables>({ dialect: new SqliteDialect({ database: withStatementCache(connection, limit) }) });

  it('prepares a statement once and runs it again with other values', async () => {
    const db = kysely();
    for (const text of ['a', 'b', 'c']) await db.insertInto('notes').values({ text }).execute();
    const texts = [];
    for (const id of [1, 2, 3]) {
      const note = await db.selectFrom('notes').select('text').where('id', '=', id).executeTakeFirstOrThrow();
      texts.push(note.text);
    }
    expect(texts).toEqual(['a', 'b', 'c']);
    expect(prepared).toHaveLength(2);
    await db.destroy();
    expect(connection.open).toBe(false);
  });

  it('answers from the schema of the moment after the schema changed', async () => {
    const db = kysely();
    await db.insertInto('notes').values({ text: 'a' }).execute();
    const everything = () => sql<Record<string, unknown>>`select * from notes`.execute(db);
    expect((await everything()).rows).toEqual([{ id: 1, text: 'a' }]);
    connection.exec("alter table notes add column colour text not null default 'blue'");
    expect((await everything()).rows).toEqual([{ id: 1, text: 'a', colour: 'blue' }]);
  });

  it('runs a statement again while the same one is still iterating over rows', async () => {
    connection.exec("insert into notes (text) values ('a'), ('b')");
    const database = withStatementCache(connection);
    const all = 'select text from notes order by id';
    const seen: unknown[][] = [];
    for (const row of database.prepare(all).iterate([])) {
      seen.push([row, ...database.prepare(all).all([])]);
    }
    expect(seen).toEqual([
      [{ text: 'a' }, { text: 'a' }, { text: 'b' }],
      [{ text: 'b' }, { text: 'a' }, { text: 'b' }],
    ]);
    // A fresh statement for each run during the iteration; once it ended, the kept one serves again.
    database.prepare(all).all([]);
    expect(prepared).toEqual([all, all, all]);
  });

  it('keeps no more statements than its bound, dropping the least recently used', async () => {
    const db = kysely(2);
    const byId = (id: number) => sql`select ${sql.lit(id)} as id`.execute(db);
    await byId(1);
    await byId(2);
    await byId(1); // 1 is now the most recently used; 2 goes when 3 comes.
    await byId(3);
    await byId(1);
    await byId(2);
    expect(prepared).toEqual(['select 1 as id', 'select 2 as id', 'select 3 as id', 'select 2 as id']);
  });
});
