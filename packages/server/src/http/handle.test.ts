import cookie from '@fastify/cookie';
import { api } from '@wharf/contract';
import SQLite from 'better-sqlite3';
import Fastify from 'fastify';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { accessGuards } from '../access/guards.ts';
import type { Db } from '../db/schema.ts';
import { bindRoute } from './handle.ts';
import { zodSerializerCompiler, zodValidatorCompiler } from './validation.ts';

const timeouts = { idleMs: 1_000, deadlineMs: 1_000 };

/** An app with the contract's plumbing and a database that counts the statements asked of it (it has no table: each fails). */
function appCountingStatements() {
  let statements = 0;
  const db = new Kysely({
    dialect: new SqliteDialect({ database: new SQLite(':memory:') }),
    log: () => {
      statements++;
    },
  }) as unknown as Db;
  const fastify = Fastify();
  fastify.register(cookie);
  fastify.setValidatorCompiler(zodValidatorCompiler);
  fastify.setSerializerCompiler(zodSerializerCompiler);
  return { fastify, db, statements: () => statements, guards: accessGuards(db) };
}

describe('a public route that answers every caller alike', () => {
  const signedIn = { cookie: 'wharf_session=a-session-of-someone' };

  it('does not look its caller up, where a route that may answer callers differently does', async () => {
    const { fastify, db, statements, guards } = appCountingStatements();
    bindRoute(
      fastify,
      db,
      api.getSystemInfo,
      guards.everyone,
      () => ({ version: '1' }),
      async () => {},
      timeouts,
    );
    bindRoute(
      fastify,
      db,
      api.getAuthMethods,
      guards.anyone,
      () => ({ methods: [] }) as never,
      async () => {},
      timeouts,
    );

    const alike = await fastify.inject({ url: '/api/v1/system/info', headers: signedIn });
    expect(alike.statusCode).toBe(200);
    expect(statements()).toBe(0);

    await fastify.inject({ url: '/auth/methods', headers: signedIn });
    expect(statements()).toBeGreaterThan(0);
    await fastify.close();
  });

  it('may not be a route for signed-in callers, whose caller must be known', () => {
    const { fastify, db, guards } = appCountingStatements();
    expect(() =>
      bindRoute(
        fastify,
        db,
        api.getUser,
        guards.everyone,
        () => ({}) as never,
        async () => {},
        timeouts,
      ),
    ).toThrow(/not public/);
  });
});
