import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { signedIn } from '../../test/client.ts';
import { databases, randomSchema, startTestServer, type TestServer, withPg } from '../../test/harness.ts';

const FIRST_SECRET = 'the first node secret, 32 characters or more';
const OTHER_SECRET = 'another node with a secret of its own, 32+ chars';

describe.each(databases)('one secret per installation on $name', ({ postgres }) => {
  let dataDir: string;
  let schema: string | undefined;
  const running: TestServer[] = [];

  afterEach(async () => {
    await Promise.all(running.splice(0).map((server) => server.close()));
    if (schema) await withPg((client) => client.query(`drop schema if exists ${schema} cascade`));
    await rm(dataDir, { recursive: true, force: true });
  });

  /** A node of one installation: the same database, a data directory of its own unless shared. */
  async function startNode(secret: string | null, ownDataDir = false) {
    const server = await startTestServer({
      postgres,
      schema,
      dataDir: ownDataDir ? await mkdtemp(path.join(os.tmpdir(), 'wharf-node-')) : dataDir,
      env: secret ? { WHARF_SECRET: secret } : {},
    });
    running.push(server);
    return server;
  }

  it('refuses to start a node whose secret differs from the one the database was sealed with, saying what to do', async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'wharf-secret-'));
    schema = postgres ? await randomSchema() : undefined;
    const first = await startNode(FIRST_SECRET);
    expect((await (await signedIn(first.url, 'owner')).get('/api/v1/user')).status).toBe(200);
    await first.close();
    running.length = 0;

    // PostgreSQL: a second node with a data directory of its own; SQLite: the same database file.
    await expect(startNode(OTHER_SECRET, postgres)).rejects.toThrow(/sealed with another secret.*WHARF_SECRET/s);
    // Without WHARF_SECRET, a node with its own data directory makes a secret of its own: refused too.
    if (postgres) await expect(startNode(null, true)).rejects.toThrow(/sealed with another secret/);
    const again = await startNode(FIRST_SECRET, postgres);
    expect((await (await signedIn(again.url, 'owner')).get('/api/v1/user')).status).toBe(200);
  });
});
