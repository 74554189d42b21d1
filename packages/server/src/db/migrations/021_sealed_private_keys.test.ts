import { expect, it } from 'vitest';
import { selfSignedCertificate } from '../../../test/certificates.ts';
import { describeMigration } from '../../../test/emptyDb.ts';
import { readJson } from '../../lib/json.ts';
import { Sealer } from '../../lib/secrets.ts';
import { migrate } from '../migrate.ts';

const sealer = new Sealer('the installation secret');

describeMigration('021', (olderDb) => {
  it('seals the private keys of manual certificates saved in clear, and leaves the rest as it was', async () => {
    const db = await olderDb();
    await migrate(db, () => sealer, '020_installation');
    const pair = selfSignedCertificate('old.example.com');
    const ownership = { token: 'wharf-token', verifiedAt: '2026-01-01T00:00:00.000Z' };
    const saved = [
      { name: 'old.example.com', exposeBranches: false, sslConfiguration: { type: 'manual', ...pair }, ownership },
      { name: 'acme.example.com', exposeBranches: true, sslConfiguration: { type: 'acme' }, ownership },
    ];
    await db
      .insertInto('sites')
      .values({
        id: 'site',
        org_id: 'o',
        team_id: 't',
        name: 'site',
        color: '#000000',
        logo_type: null,
        logo_version: null,
        pretty_urls: 1,
        main_branch_id: 'b',
        spa: 0,
        password_hash: null,
        password_version: null,
        domains: JSON.stringify(saved),
        headers: '[]',
        created_at: '2026-01-01T00:00:00.000Z',
        keep_releases_days: null,
        keep_releases_count: null,
      } as never)
      .execute();

    await migrate(db, () => sealer);
    const row = await db.selectFrom('sites').select('domains').executeTakeFirstOrThrow();
    expect(row.domains).not.toContain('PRIVATE KEY');
    const domains = readJson<typeof saved>(row.domains);
    const ssl = domains[0]!.sslConfiguration as { fullchain: string; privateKey: string };
    expect(sealer.open(ssl.privateKey)).toBe(pair.privateKey);
    expect(ssl.fullchain).toBe(pair.fullchain);
    expect(domains[1]).toEqual(saved[1]);
  });
});
