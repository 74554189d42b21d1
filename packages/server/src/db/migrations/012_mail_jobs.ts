import { type Kysely, type Migration, sql } from 'kysely';
import type { Sealer } from '../../lib/secrets.ts';
import { newId, sealedMail } from './frozen.ts';

interface QueuedMail {
  id: string;
  recipient: string;
  subject: string;
  body: string;
  created_at: string;
}

/**
 * Mail leaves through the job queue. The mails `mail_queue` still holds unsent (form mails,
 * queued when nothing sent them) become mail jobs, sealed like every mail job, and the table goes.
 * The sealer is asked for only when there is something to seal.
 */
export function mailJobs(sealer: () => Sealer): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const { rows } = await sql<QueuedMail>`
        select id, recipient, subject, body, created_at from mail_queue
        where sent_at is null order by created_at, id`.execute(db);
      const time = new Date().toISOString();
      for (const row of rows) {
        const payload = JSON.stringify(
          sealedMail(sealer(), { to: row.recipient, subject: row.subject, text: row.body }),
        );
        await sql`
          insert into jobs (id, kind, hook_id, event_id, payload, state, attempts, next_attempt_at,
            lease_until, last_error, created_at, finished_at)
          values (${newId()}, 'mail', null, null, ${payload}, 'pending', 0, ${time},
            null, null, ${row.created_at}, null)`.execute(db);
      }
      await db.schema.dropTable('mail_queue').execute();
    },
  };
}
