import { verifyPassword } from '@wharf/contract/passwords';
import { expect, it } from 'vitest';
import { describeMigration, migrationSealer } from '../../../test/emptyDb.ts';
import { migrate } from '../migrate.ts';
import type { Database } from '../schema.ts';

/** A release row as the schema had them then: the columns later migrations add are not there yet. */
const release = (id: string, headers: unknown[]) =>
  ({
    id,
    site_id: 's1',
    name: id,
    forms: '[]',
    file_count: 1,
    total_size: 10,
    rules: JSON.stringify({ redirects: [], headers }),
    rule_problems: '[]',
    created_at: '2024-05-01T10:00:00.000Z',
  }) as Database['releases'];

describeMigration('023', (olderDb) => {
  it('replaces the clear Basic-Auth passwords of stored releases by their hashes, keeping their users', async () => {
    const db = await olderDb();
    await migrate(db, migrationSealer, '020_installation');
    const protectedBlock = {
      line: 1,
      host: null,
      path: '/admin/*',
      set: [
        ['basic-auth', 'ann:first bob:se:cond'],
        ['X-Kept', 'yes'],
      ],
      remove: [],
    };
    const plainBlock = { line: 4, host: null, path: '/*', set: [['X-Frame-Options', 'DENY']], remove: [] };
    await db
      .insertInto('releases')
      .values([release('r1', [protectedBlock, plainBlock]), release('r2', [plainBlock])])
      .execute();

    await migrate(db, migrationSealer);
    const rows = await db.selectFrom('releases').select(['id', 'rules']).orderBy('id').execute();
    expect(rows[0]!.rules).not.toMatch(/first|se:cond/);
    const [migrated, untouched] = JSON.parse(rows[0]!.rules).headers;
    expect(migrated.set).toEqual([['X-Kept', 'yes']]);
    expect(migrated.basicAuth.map((user: { user: string }) => user.user)).toEqual(['ann', 'bob']);
    expect(await verifyPassword('first', migrated.basicAuth[0].hash)).toBe(true);
    expect(await verifyPassword('se:cond', migrated.basicAuth[1].hash)).toBe(true);
    expect(untouched).toEqual(plainBlock);
    expect(JSON.parse(rows[1]!.rules).headers).toEqual([plainBlock]);
  });
});
