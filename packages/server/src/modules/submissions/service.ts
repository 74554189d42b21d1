import type { Executor } from '../../db/schema.ts';
import { recordEvent } from '../../events/outbox.ts';
import { newId } from '../../lib/ids.ts';
import { flag } from '../../lib/json.ts';

export interface NewSubmission {
  siteId: string;
  branchId: string;
  releaseId: string;
  form: string;
  fields: Record<string, string>;
  clientAddress: string;
  createdAt: string;
  spam: boolean;
}

/**
 * Stores what a visitor posted to a form. A real submission is announced (`form_submitted`, in the
 * same transaction) to hooks and the console; spam is kept apart, silently.
 */
export async function storeSubmission(trx: Executor, input: NewSubmission): Promise<string> {
  const where = await trx
    .selectFrom('branches')
    .innerJoin('sites', 'sites.id', 'branches.site_id')
    .select(['branches.name', 'sites.org_id', 'sites.team_id'])
    .where('branches.id', '=', input.branchId)
    .where('sites.id', '=', input.siteId)
    .executeTakeFirstOrThrow();
  const id = newId();
  await trx
    .insertInto('form_submissions')
    .values({
      id,
      site_id: input.siteId,
      branch_id: input.branchId,
      branch_name: where.name,
      release_id: input.releaseId,
      form: input.form,
      fields: JSON.stringify(input.fields),
      client_address: input.clientAddress,
      created_at: input.createdAt,
      spam: flag(input.spam),
    })
    .execute();
  if (input.spam) return id;
  await recordEvent(trx, {
    name: 'form_submitted',
    actorId: null,
    orgId: where.org_id,
    teamId: where.team_id,
    siteId: input.siteId,
    data: {
      submissionId: id,
      form: input.form,
      branchId: input.branchId,
      branchName: where.name,
      fields: input.fields,
    },
  });
  return id;
}
