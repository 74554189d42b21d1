import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { describeMigration, migrationSealer } from '../../../test/emptyDb.ts';
import { migrate } from '../migrate.ts';

describeMigration('015', (olderDb) => {
  it('gives every existing user the account it signed in with, so that it signs in as before', async () => {
    const db = await olderDb();
    await migrate(db, migrationSealer, '014_tls_certificates');
    await sql`
        insert into users (id, name, email, provider, provider_id, created_at) values
          ('u1', 'admin', null, 'in-memory', 'admin', '2024-05-01T10:00:00.000Z'),
          ('u2', 'Ada', 'ada@example.test', 'github', '1234', '2024-05-02T10:00:00.000Z')`.execute(db);

    await migrate(db, migrationSealer);
    const identities = await db
      .selectFrom('identities')
      .select(['user_id', 'provider', 'subject', 'login', 'email', 'groups'])
      .orderBy('user_id')
      .execute();
    expect(identities).toEqual([
      { user_id: 'u1', provider: 'in-memory', subject: 'admin', login: 'admin', email: null, groups: '[]' },
      { user_id: 'u2', provider: 'github', subject: '1234', login: 'Ada', email: 'ada@example.test', groups: '[]' },
    ]);
    const members = await db.selectFrom('members').select(['invite_email', 'joined_provider']).execute();
    expect(members).toEqual([]);
  });
});
