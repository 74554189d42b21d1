import { api } from '@wharf/contract';
import {
  mustManageSite,
  mustSeeSite,
  mustSeeSiteOrItsToken,
  mustUploadToSite,
  personOf,
  userOf,
} from '../../access/rules.ts';
import { httpError } from '../../http/errors.ts';
import type { WharfApp } from '../../wharfApp.ts';
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

export function branchRoutes(app: WharfApp) {
  const { db, config } = app;

  /** The site and branch of the path, for a caller who may manage the site. */
  async function manageable(actor: Parameters<typeof mustManageSite>[1], params: { siteId: string; branchId: string }) {
    const { site } = await mustManageSite(db, actor, params.siteId);
    return { site, branch: await findBranch(db, site.id, params.branchId), actorId: userOf(actor) };
  }

  /** As manageable, or the site's own token: what a CI does to the branches it deploys. */
  async function deployable(actor: Parameters<typeof mustManageSite>[1], params: { siteId: string; branchId: string }) {
    const site = await mustUploadToSite(db, actor, params.siteId);
    return { site, branch: await findBranch(db, site.id, params.branchId), actorId: personOf(actor) };
  }

  app.handle(api.listBranches, async ({ actor, params }) => {
    const site = await mustSeeSiteOrItsToken(db, actor, params.siteId);
    return (await listBranchRows(db, site.id)).map((row) => toBranch(config, site.name, row));
  });

  app.handle(api.createBranch, async ({ actor, params, body }) => {
    const { site } = await mustManageSite(db, actor, params.siteId);
    return createBranch(db, config, userOf(actor), site, body);
  });

  // Only those who may create or rename a branch need to know whether a name is free.
  app.handle(api.validateBranchName, async ({ actor, params, body }) => {
    await mustManageSite(db, actor, params.siteId);
    return (await isBranchNameTaken(db, params.siteId, body.name))
      ? { valid: false, message: 'Branch name is taken' }
      : { valid: true };
  });

  app.handle(api.getBranch, async ({ actor, params }) => {
    const { site } = await mustSeeSite(db, actor, params.siteId);
    const row = await findBranch(db, site.id, params.branchId);
    const currentRelease = row.release_id ? await getRelease(db, config, site.name, row.release_id) : null;
    return { ...toBranch(config, site.name, row), currentRelease };
  });

  app.handle(api.deleteBranch, async ({ actor, params }) => {
    const { site, branch, actorId } = await deployable(actor, params);
    await deleteBranch(db, actorId, site, branch);
  });

  app.handle(api.renameBranch, async ({ actor, params, body }) => {
    const target = await manageable(actor, params);
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

  app.handle(api.setBranchRelease, async ({ actor, params, body }) => {
    const target = await deployable(actor, params);
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

  app.handle(api.setBranchPassword, async ({ actor, params, body }) => {
    const target = await manageable(actor, params);
    const columns = await newPasswordColumns(body.password);
    return changeBranch(db, config, { ...target, event: 'site_branch_password_set', data: {}, prepare: () => columns });
  });

  app.handle(api.removeBranchPassword, async ({ actor, params }) => {
    const target = await manageable(actor, params);
    return changeBranch(db, config, {
      ...target,
      event: 'site_branch_password_removed',
      data: {},
      prepare: () => ({ password_hash: null, password_version: null }),
    });
  });

  app.handle(api.getBranchRedirects, async ({ actor, params }) => {
    const { site } = await mustSeeSite(db, actor, params.siteId);
    return redirectsOf(await findBranch(db, site.id, params.branchId));
  });

  app.handle(api.setBranchRedirects, async ({ actor, params, body }) => {
    const target = await manageable(actor, params);
    mustBeAllowedUpstreams(app.outbound, body.redirects);
    const branch = await changeBranch(db, config, {
      ...target,
      event: 'site_branch_redirects_set',
      data: { count: body.redirects.length },
      prepare: () => ({ redirects: JSON.stringify(body.redirects) }),
    });
    return redirectsOf(await findBranch(db, target.site.id, branch._id));
  });

  app.handle(api.setBranchHeaders, async ({ actor, params, body }) => {
    const target = await manageable(actor, params);
    const branch = await changeBranch(db, config, {
      ...target,
      event: 'site_branch_updated',
      data: { headers: body.headers.map((h) => h.name) },
      prepare: () => ({ headers: JSON.stringify(body.headers) }),
    });
    return branch.headers;
  });
}
