import type { Domain } from '@wharf/contract';
import type { Config } from '../../config/types.ts';
import type { Db, Executor } from '../../db/schema.ts';
import { recordEvent } from '../../events/outbox.ts';
import { httpError, invalidField } from '../../http/errors.ts';
import { colorFromName } from '../../lib/colors.ts';
import { newId, now } from '../../lib/ids.ts';
import { FLAT_BRANCH_SEPARATOR, SITE_NAME_MAX } from '../../lib/urls.ts';
import { dropSiteClaims, saveClaims } from './claims.ts';
import { getSite, isSiteNameTaken } from './queries.ts';

export const MAIN_BRANCH_NAME = 'main';

/**
 * Why a site may not take this name on this installation, or null. A release's permanent address
 * is `{release slug}--{site}`, one DNS label, which resolvers refuse beyond 63 characters. With flat
 * branch hosts, `{branch}--{site}` is a branch's address: a site named `preview--shop` would take the
 * address of the branch `preview` of the site `shop`. Asked when a site takes a name (created,
 * renamed), so a site named before a rule keeps its name.
 */
export function siteNameProblem(config: Pick<Config, 'branchHosts'>, name: string): string | null {
  if (name.length > SITE_NAME_MAX)
    return `Must be at most ${SITE_NAME_MAX} characters: a release's address, {release}--{site}, is one host name label of 63 at most`;
  if (config.branchHosts === 'flat' && name.includes(FLAT_BRANCH_SEPARATOR))
    return `Must not contain "${FLAT_BRANCH_SEPARATOR}": it separates a branch from its site in branch addresses`;
  return null;
}

function mustSuitBranchHosts(config: Pick<Config, 'branchHosts'>, name: string) {
  const problem = siteNameProblem(config, name);
  if (problem) throw invalidField('name', problem);
}

/** A site is born with its main branch, which serves nothing until the first upload. */
export async function createSite(
  db: Db,
  config: Config,
  input: { actorId: string; orgId: string; teamId: string; name: string; color?: string },
) {
  mustSuitBranchHosts(config, input.name);
  const siteId = newId();
  const branchId = newId();
  const createdAt = now();
  await db.transaction().execute(async (trx) => {
    if (await isSiteNameTaken(trx, input.name)) throw httpError('SITE_NAME_TAKEN', 'Site name is taken');
    await trx
      .insertInto('sites')
      .values({
        id: siteId,
        org_id: input.orgId,
        team_id: input.teamId,
        name: input.name,
        color: input.color ?? colorFromName(input.name),
        logo_type: null,
        logo_version: null,
        pretty_urls: 1,
        main_branch_id: branchId,
        spa: 0,
        password_hash: null,
        password_version: null,
        domains: '[]',
        headers: '[]',
        created_at: createdAt,
        forms_revision: 0,
      })
      .execute();
    await trx
      .insertInto('branches')
      .values({
        id: branchId,
        site_id: siteId,
        name: MAIN_BRANCH_NAME,
        slug: MAIN_BRANCH_NAME,
        release_id: null,
        password_hash: null,
        password_version: null,
        headers: '[]',
        redirects: '[]',
        created_at: createdAt,
      })
      .execute();
    await recordEvent(trx, {
      name: 'site_added',
      actorId: input.actorId,
      orgId: input.orgId,
      teamId: input.teamId,
      siteId,
      data: { name: input.name },
    });
  });
  return getSite(db, config, siteId);
}

export interface SiteSettings {
  name: string;
  color: string;
  mainBranch: string;
  spa: boolean;
  /** Undefined: unchanged. */
  prettyUrls?: boolean;
  domains: Domain[];
}

export async function updateSite(db: Db, config: Config, actorId: string, siteId: string, settings: SiteSettings) {
  await db.transaction().execute(async (trx) => {
    const site = await trx
      .selectFrom('sites')
      .select(['org_id', 'team_id', 'name'])
      .where('id', '=', siteId)
      .executeTakeFirstOrThrow();
    // Only a new name is checked: a site named before flat branch hosts were switched on keeps its settings editable.
    if (settings.name !== site.name) mustSuitBranchHosts(config, settings.name);
    if (await isSiteNameTaken(trx, settings.name, siteId)) throw httpError('SITE_NAME_TAKEN', 'Site name is taken');
    const mainBranch = await trx
      .selectFrom('branches')
      .select('id')
      .where('id', '=', settings.mainBranch)
      .where('site_id', '=', siteId)
      .executeTakeFirst();
    if (!mainBranch) {
      throw invalidField('mainBranch', 'Must be a branch of this site');
    }
    await saveClaims(trx, { id: siteId, org_id: site.org_id }, settings.domains);
    // What the site's own address serves never expires (see mustNotExpireMainBranch).
    await trx.updateTable('branches').set({ expires_at: null }).where('id', '=', settings.mainBranch).execute();
    await trx
      .updateTable('sites')
      .set({
        name: settings.name,
        color: settings.color,
        main_branch_id: settings.mainBranch,
        spa: settings.spa ? 1 : 0,
        ...(settings.prettyUrls === undefined ? {} : { pretty_urls: settings.prettyUrls ? 1 : 0 }),
        domains: JSON.stringify(settings.domains),
      })
      .where('id', '=', siteId)
      .execute();
    await recordEvent(trx, {
      name: 'site_updated',
      actorId,
      orgId: site.org_id,
      teamId: site.team_id,
      siteId,
      data: {
        name: settings.name,
        mainBranch: settings.mainBranch,
        spa: settings.spa,
        ...(settings.prettyUrls === undefined ? {} : { prettyUrls: settings.prettyUrls }),
        domains: settings.domains.map((d) => d.name),
      },
    });
  });
  return getSite(db, config, siteId);
}

/** Removes every row of a site; release files are reclaimed by the blob garbage collection. */
export async function deleteSiteRows(trx: Executor, siteId: string) {
  const branchIds = trx.selectFrom('branches').select('id').where('site_id', '=', siteId);
  await trx.deleteFrom('branch_releases').where('branch_id', 'in', branchIds).execute();
  await trx.deleteFrom('branches').where('site_id', '=', siteId).execute();
  const releaseIds = trx.selectFrom('releases').select('id').where('site_id', '=', siteId);
  await trx.deleteFrom('release_files').where('release_id', 'in', releaseIds).execute();
  await trx.deleteFrom('releases').where('site_id', '=', siteId).execute();
  const deployIds = trx.selectFrom('deploys').select('id').where('site_id', '=', siteId);
  await trx.deleteFrom('deploy_files').where('deploy_id', 'in', deployIds).execute();
  await trx.deleteFrom('deploys').where('site_id', '=', siteId).execute();
  await trx.deleteFrom('failed_deploys').where('site_id', '=', siteId).execute();
  await trx.deleteFrom('site_traffic').where('site_id', '=', siteId).execute();
  await trx.deleteFrom('branch_traffic').where('site_id', '=', siteId).execute();
  await trx.deleteFrom('traffic_top').where('site_id', '=', siteId).execute();
  await trx.deleteFrom('site_tokens').where('site_id', '=', siteId).execute();
  await trx.deleteFrom('site_repositories').where('site_id', '=', siteId).execute();
  const buildIds = trx.selectFrom('builds').select('id').where('site_id', '=', siteId);
  await trx.deleteFrom('build_log').where('build_id', 'in', buildIds).execute();
  await trx.deleteFrom('builds').where('site_id', '=', siteId).execute();
  await trx.deleteFrom('build_hooks').where('site_id', '=', siteId).execute();
  await trx.deleteFrom('build_variables').where('site_id', '=', siteId).execute();
  await trx.deleteFrom('webhook_deliveries').where('site_id', '=', siteId).execute();
  await trx.deleteFrom('pull_request_comments').where('site_id', '=', siteId).execute();
  await trx.deleteFrom('form_submissions').where('site_id', '=', siteId).execute();
  await trx.deleteFrom('site_forms').where('site_id', '=', siteId).execute();
  const { org_id } = await trx.selectFrom('sites').select('org_id').where('id', '=', siteId).executeTakeFirstOrThrow();
  await dropSiteClaims(trx, { id: siteId, org_id });
  const hookIds = trx.selectFrom('hooks').select('id').where('context', '=', 'sites').where('owner_id', '=', siteId);
  await trx.deleteFrom('hook_deliveries').where('hook_id', 'in', hookIds).execute();
  await trx.deleteFrom('hooks').where('context', '=', 'sites').where('owner_id', '=', siteId).execute();
  await trx.deleteFrom('sites').where('id', '=', siteId).execute();
}

export async function deleteSite(
  db: Db,
  actorId: string,
  site: { id: string; org_id: string; team_id: string; name: string },
) {
  await db.transaction().execute(async (trx) => {
    await deleteSiteRows(trx, site.id);
    await recordEvent(trx, {
      name: 'site_deleted',
      actorId,
      orgId: site.org_id,
      teamId: site.team_id,
      siteId: site.id,
      data: { name: site.name },
    });
  });
}
