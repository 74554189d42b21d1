import { api } from '@wharf/contract';
import { type Guard, type PathParams, param } from '../../access/guards.ts';
import { mustManageSite, mustSeeSite, mustUploadToSite, personOf, userOf } from '../../access/rules.ts';
import type { Database } from '../../db/schema.ts';
import { feature } from '../../features/feature.ts';
import type { PartsOf } from '../../features/parts.ts';
import { httpError } from '../../http/errors.ts';
import { getRelease } from '../releases/queries.ts';
import { findBranch, isBranchNameTaken, listBranchRows, redirectsOf, toBranch } from './queries.ts';
import {
  changeBranch,
  createBranch,
  deleteBranch,
  mustBeAllowedUpstreams,
  mustBeReleaseOfSite,
  newPasswordColumns,
  pointBranchAt,
} from './service.ts';
import { freeSlug } from './slugs.ts';

type Site = Database['sites'];
type Branch = Awaited<ReturnType<typeof findBranch>>;

const needs = ['access', 'config', 'db', 'handle', 'outbound'] as const;

function branchRoutes(parts: PartsOf<(typeof needs)[number]>) {
  const { db, config, access } = parts;
  const branchOf = (site: { id: string }, params: PathParams) => findBranch(db, site.id, param(params, 'branchId'));

  /** The site and branch of the path, for a caller who may see the site. */
  const viewable: Guard<{ site: Site; branch: Branch }> = async (actor, params) => {
    const { site } = await mustSeeSite(db, actor, param(params, 'siteId'));
    return { site, branch: await branchOf(site, params) };
  };

  /** The site and branch of the path, for a caller who may manage the site. */
  const manageable: Guard<{ site: Site; branch: Branch; actorId: string }> = async (actor, params) => {
    const { site } = await mustManageSite(db, actor, param(params, 'siteId'));
    return { site, branch: await branchOf(site, params), actorId: userOf(actor) };
  };

  /** As manageable, or the site's own token: what a CI does to the branches it deploys. */
  const deployable: Guard<{ site: Site; branch: Branch; actorId: string | null }> = async (actor, params) => {
    const site = await mustUploadToSite(db, actor, param(params, 'siteId'));
    return { site, branch: await branchOf(site, params), actorId: personOf(actor) };
  };

  parts.handle(api.listBranches, access.siteViewerOrToken, async ({ site }) =>
    (await listBranchRows(db, site.id)).map((row) => toBranch(config, site, row)),
  );

  parts.handle(api.createBranch, access.siteManager, ({ actor, site, body }) =>
    createBranch(db, config, userOf(actor), site, body),
  );

  // Only those who may create or rename a branch need to know whether a name is free.
  parts.handle(api.validateBranchName, access.siteManager, async ({ params, body }) => {
    return (await isBranchNameTaken(db, params.siteId, body.name))
      ? { valid: false, message: 'Branch name is taken' }
      : { valid: true };
  });

  parts.handle(api.getBranch, viewable, async ({ site, branch: row }) => {
    const currentRelease = row.release_id ? await getRelease(db, config, site, row.release_id) : null;
    return { ...toBranch(config, site, row), currentRelease };
  });

  parts.handle(api.deleteBranch, deployable, async ({ site, branch, actorId }) => {
    await deleteBranch(db, actorId, site, branch);
  });

  parts.handle(api.renameBranch, manageable, ({ site, branch, actorId, body }) => {
    const target = { site, branch, actorId };
    return changeBranch(db, config, {
      ...target,
      event: 'site_branch_updated',
      data: { name: body.name, previousName: target.branch.name },
      prepare: async (trx) => {
        if (await isBranchNameTaken(trx, target.site.id, body.name, target.branch.id))
          throw httpError('BRANCH_NAME_TAKEN', 'Branch name is taken');
        return { name: body.name, slug: await freeSlug(trx, target.site.id, body.name, target.branch.id) };
      },
    });
  });

  parts.handle(api.setBranchRelease, deployable, ({ site, branch, actorId, body }) => {
    const target = { site, branch, actorId };
    const data: Record<string, unknown> = { releaseId: body.release, previousReleaseId: target.branch.release_id };
    return changeBranch(db, config, {
      ...target,
      event: 'site_branch_release_set',
      data,
      prepare: async (trx) => {
        // The event names the release as it is called now, which outlives a rename or deletion.
        data.releaseName = (await mustBeReleaseOfSite(trx, target.site.id, body.release)).name;
        return {};
      },
      after: (trx) => pointBranchAt(trx, target.branch.id, body.release),
    });
  });

  parts.handle(api.setBranchPassword, manageable, async ({ site, branch, actorId, body }) => {
    const target = { site, branch, actorId };
    const columns = await newPasswordColumns(body.password);
    return changeBranch(db, config, { ...target, event: 'site_branch_password_set', data: {}, prepare: () => columns });
  });

  parts.handle(api.removeBranchPassword, manageable, ({ site, branch, actorId }) => {
    return changeBranch(db, config, {
      site,
      branch,
      actorId,
      event: 'site_branch_password_removed',
      data: {},
      prepare: () => ({ password_hash: null, password_version: null }),
    });
  });

  parts.handle(api.getBranchRedirects, viewable, ({ branch }) => redirectsOf(branch));

  parts.handle(api.setBranchRedirects, manageable, async ({ site, branch: before, actorId, body }) => {
    const target = { site, branch: before, actorId };
    mustBeAllowedUpstreams(parts.outbound, body.redirects);
    const branch = await changeBranch(db, config, {
      ...target,
      event: 'site_branch_redirects_set',
      data: { count: body.redirects.length },
      prepare: () => ({ redirects: JSON.stringify(body.redirects) }),
    });
    return redirectsOf(await findBranch(db, target.site.id, branch._id));
  });

  parts.handle(api.setBranchHeaders, manageable, async ({ site, branch: target, actorId, body }) => {
    const branch = await changeBranch(db, config, {
      site,
      branch: target,
      actorId,
      event: 'site_branch_updated',
      data: { headers: body.headers.map((h) => h.name) },
      prepare: () => ({ headers: JSON.stringify(body.headers) }),
    });
    return branch.headers;
  });
}

/** Branches and what they serve. */
export const branchesFeature = feature({ name: 'branches', needs, routes: branchRoutes });
