import type { EventName, Redirect } from '@wharf/contract';
import { hashPassword } from '@wharf/contract/passwords';
import type { Updateable } from 'kysely';
import type { Config } from '../../config/types.ts';
import { lockingRows } from '../../db/rowLocks.ts';
import type { Database, Db, Executor } from '../../db/schema.ts';
import { recordEvent } from '../../events/outbox.ts';
import { httpError, invalidField } from '../../http/errors.ts';
import { newId, now, randomString } from '../../lib/ids.ts';
import type { OutboundGuard } from '../../outbound/guard.ts';
import { forgetBranchInForms } from '../forms/service.ts';
import { siteScope } from '../sites/siteEvents.ts';
import { type BranchRow, findBranch, isBranchNameTaken, toBranch } from './queries.ts';
import { freeSlug } from './slugs.ts';

type SiteRow = Database['sites'];

/** The release must be one of the site's own. */
export async function mustBeReleaseOfSite(db: Executor, siteId: string, releaseId: string, field = 'release') {
  // Held until the branch points at it: the retention sweep must not delete it meanwhile.
  const query = db
    .selectFrom('releases')
    .select(['id', 'name'])
    .where('id', '=', releaseId)
    .where('site_id', '=', siteId);
  const release = await lockingRows(db, query, 'share').executeTakeFirst();
  if (!release) throw invalidField(field, 'Must be a release of this site');
  return release;
}

/**
 * Every reverse-proxy rule's upstream must be one the outbound guard allows; each refused one is
 * named in `details`. The guard checks the address again on every connection, whatever was saved.
 */
export function mustBeAllowedUpstreams(outbound: OutboundGuard, redirects: Redirect[]) {
  const problems = redirects.flatMap((rule, index) => {
    const problem = rule.type === 'reverse_proxy' ? outbound.problemWithUrl(rule.config.url) : null;
    return problem ? [{ field: `redirects.${index}.config.url`, message: problem }] : [];
  });
  const [first] = problems;
  if (first) throw httpError('UPSTREAM_NOT_ALLOWED', `${first.field}: ${first.message}`, problems);
}

/** Points a branch at a release and remembers it in the branch's history (the releases tab's `branch` filter). */
export async function pointBranchAt(trx: Executor, branchId: string, releaseId: string) {
  const setAt = now();
  await trx.updateTable('branches').set({ release_id: releaseId }).where('id', '=', branchId).execute();
  await trx
    .insertInto('branch_releases')
    .values({ branch_id: branchId, release_id: releaseId, set_at: setAt })
    .onConflict((oc) => oc.columns(['branch_id', 'release_id']).doUpdateSet({ set_at: setAt }))
    .execute();
}

/**
 * Points the site's branch of this name at a release, creating the branch when it has none (an
 * upload's or a publish's branches need not exist yet), each change recorded as an event; `origin`
 * is the actor and what the audit log keeps of the upload (releases/origin.ts).
 */
export async function pointBranchNamed(
  trx: Executor,
  site: SiteRow,
  name: string,
  release: { id: string; name: string },
  { actorId, ...origin }: { actorId: string | null } & Record<string, unknown>,
): Promise<BranchRow> {
  const scope = { actorId, ...siteScope(site) };
  let branch = await trx
    .selectFrom('branches')
    .selectAll()
    .where('site_id', '=', site.id)
    .where('name', '=', name)
    .executeTakeFirst();
  if (!branch) {
    branch = await insertBranch(trx, site.id, name);
    await recordEvent(trx, {
      ...scope,
      name: 'site_branch_added',
      data: { branchId: branch.id, name, releaseId: release.id, ...origin },
    });
  }
  await pointBranchAt(trx, branch.id, release.id);
  await recordEvent(trx, {
    ...scope,
    name: 'site_branch_release_set',
    data: {
      branchId: branch.id,
      name,
      releaseId: release.id,
      releaseName: release.name,
      previousReleaseId: branch.release_id,
      ...origin,
    },
  });
  return { ...branch, release_id: release.id };
}

export async function insertBranch(trx: Executor, siteId: string, name: string) {
  if (await isBranchNameTaken(trx, siteId, name)) throw httpError('BRANCH_NAME_TAKEN', 'Branch name is taken');
  const row: BranchRow = {
    id: newId(),
    site_id: siteId,
    name,
    slug: await freeSlug(trx, siteId, name),
    release_id: null,
    password_hash: null,
    password_version: null,
    headers: '[]',
    redirects: '[]',
    expires_at: null,
    created_at: now(),
  };
  await trx.insertInto('branches').values(row).execute();
  return row;
}

export async function createBranch(
  db: Db,
  config: Config,
  actorId: string,
  site: SiteRow,
  body: { name: string; releaseId?: string | null },
) {
  const row = await db.transaction().execute(async (trx) => {
    if (body.releaseId) await mustBeReleaseOfSite(trx, site.id, body.releaseId, 'releaseId');
    const branch = await insertBranch(trx, site.id, body.name);
    if (body.releaseId) await pointBranchAt(trx, branch.id, body.releaseId);
    await recordEvent(trx, {
      name: 'site_branch_added',
      actorId,
      ...siteScope(site),
      data: { branchId: branch.id, name: branch.name, releaseId: body.releaseId ?? null },
    });
    return findBranch(trx, site.id, branch.id);
  });
  return toBranch(config, site, row);
}

/**
 * One change to a branch with its event, in one transaction. `prepare` runs first inside the
 * transaction (checks, derived values) and returns the columns to set; `data` is read after it.
 */
export async function changeBranch(
  db: Db,
  config: Config,
  input: {
    /** Null for a site token. */
    actorId: string | null;
    site: SiteRow;
    branch: BranchRow;
    event: EventName;
    data: Record<string, unknown>;
    prepare: (trx: Executor) => Promise<Updateable<Database['branches']>> | Updateable<Database['branches']>;
    after?: (trx: Executor) => Promise<void>;
  },
) {
  const { site, branch } = input;
  const row = await db.transaction().execute(async (trx) => {
    const changes = await input.prepare(trx);
    if (Object.keys(changes).length > 0)
      await trx.updateTable('branches').set(changes).where('id', '=', branch.id).execute();
    await input.after?.(trx);
    await recordEvent(trx, {
      name: input.event,
      actorId: input.actorId,
      ...siteScope(site),
      // Every branch event names the branch, so that it reads well after the branch is gone.
      data: { branchId: branch.id, name: branch.name, ...input.data },
    });
    return findBranch(trx, site.id, branch.id);
  });
  return toBranch(config, site, row);
}

export async function newPasswordColumns(password: string) {
  return { password_hash: await hashPassword(password), password_version: randomString(12) };
}

/**
 * Deletes a branch and records it. With `expiredBy`, only if the branch is still expired then
 * (an upload may have renewed it since it was found); answers whether it was deleted.
 */
export async function deleteBranch(
  db: Db,
  actorId: string | null,
  site: SiteRow,
  branch: BranchRow,
  options: { expiredBy?: string } = {},
) {
  if (site.main_branch_id === branch.id) {
    throw httpError('MAIN_BRANCH_UNDELETABLE', 'The main branch cannot be deleted; make another branch main first');
  }
  return db.transaction().execute(async (trx) => {
    let deletion = trx.deleteFrom('branches').where('id', '=', branch.id);
    if (options.expiredBy) deletion = deletion.where('expires_at', '<=', options.expiredBy);
    const { numDeletedRows } = await deletion.executeTakeFirst();
    if (numDeletedRows === 0n) return false;
    await trx.deleteFrom('branch_releases').where('branch_id', '=', branch.id).execute();
    await forgetBranchInForms(trx, site.id, branch.id);
    await recordEvent(trx, {
      name: 'site_branch_deleted',
      actorId,
      ...siteScope(site),
      data: { branchId: branch.id, name: branch.name, ...(options.expiredBy ? { expired: true } : {}) },
    });
    return true;
  });
}
