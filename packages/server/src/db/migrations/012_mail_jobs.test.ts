import { type Kysely, sql } from 'kysely';
import { expect, it } from 'vitest';
import { describeMigration } from '../../../test/emptyDb.ts';
import { Sealer } from '../../lib/secrets.ts';
import { openMail } from '../../mail/queue.ts';
import { migrate } from '../migrate.ts';

const sealer = new Sealer('the installation secret');

describeMigration('012', (olderDb) => {
  it("moves mail_queue's unsent mails into sealed mail jobs and drops the table", async () => {
    const db = await olderDb();
    await migrate(db, () => sealer, '010_dispatch');
    const old = db as unknown as Kysely<{ mail_queue: Record<string, string | null> }>;
    const row = (id: string, sentAt: string | null) => ({
      id,
      recipient: `${id}@example.com`,
      subject: `New submission of contact on ${id}`,
      body: 'name: Ada',
      created_at: '2024-05-01T10:00:00.000Z',
      sent_at: sentAt,
    });
    await old
      .insertInto('mail_queue')
      .values([row('unsent', null), row('sent', '2024-05-01T10:01:00.000Z')])
      .execute();

    let sealerAsked = 0;
    await migrate(db, () => {
      sealerAsked++;
      return sealer;
    });
    expect(sealerAsked).toBeGreaterThan(0);
    const jobs = await db.selectFrom('jobs').selectAll().execute();
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({
      kind: 'mail',
      state: 'pending',
      attempts: 0,
      created_at: '2024-05-01T10:00:00.000Z',
    });
    expect(jobs[0]!.payload).not.toContain('unsent@example.com');
    expect(openMail(sealer, jobs[0]!)).toEqual({
      to: 'unsent@example.com',
      subject: 'New submission of contact on unsent',
      text: 'name: Ada',
    });
    await expect(sql`select 1 from mail_queue`.execute(db)).rejects.toThrow(/mail_queue/);
  });

  it('needs no secret when nothing is left to move', async () => {
    const db = await olderDb();
    await migrate(db, () => {
      throw new Error('no secret should be needed');
    });
    expect(await db.selectFrom('jobs').selectAll().execute()).toEqual([]);
  });
});
