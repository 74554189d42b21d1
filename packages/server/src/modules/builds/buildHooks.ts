import { api, type BuildHook } from '@wharf/contract';
import { type Guard, param } from '../../access/guards.ts';
import { userOf } from '../../access/rules.ts';
import type { Database } from '../../db/schema.ts';
import { recordEvent } from '../../events/outbox.ts';
import type { PartsOf } from '../../features/parts.ts';
import { httpError } from '../../http/errors.ts';
import { newId, newSecret, now } from '../../lib/ids.ts';
import { lookupHash } from '../../lib/secrets.ts';
import { siteScope } from '../sites/siteEvents.ts';
import { queueBuild } from './buildRows.ts';
import { buildableRepository } from './routes.ts';

type BuildHookRow = Database['build_hooks'];

const toBuildHook = (row: BuildHookRow): BuildHook => ({
  _id: row.id,
  name: row.name,
  gitBranch: row.git_branch,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
});

const needs = ['access', 'config', 'db', 'handle'] as const;

/**
 * Build hooks: a secret address per hook that queues a build of its branch when anything POSTs
 * to it (a CMS after a publish, a schedule). Only the token's hash is kept, so the address is
 * shown once, as tokens are; a wrong or deleted token is a 404 that says nothing more.
 */
export function buildHookRoutes(parts: PartsOf<(typeof needs)[number]>) {
  const { db, access, config } = parts;

  parts.handle(api.listBuildHooks, access.siteViewer, async ({ site }) => {
    const rows = await db
      .selectFrom('build_hooks')
      .selectAll()
      .where('site_id', '=', site.id)
      .orderBy('created_at')
      .execute();
    return rows.map(toBuildHook);
  });

  parts.handle(api.createBuildHook, access.siteManager, async ({ actor, site, body }) =>
    db.transaction().execute(async (trx) => {
      const token = newSecret();
      const row: BuildHookRow = {
        id: newId(),
        site_id: site.id,
        name: body.name,
        git_branch: body.gitBranch,
        token_hash: lookupHash(token),
        created_at: now(),
        last_used_at: null,
      };
      await trx.insertInto('build_hooks').values(row).execute();
      await recordEvent(trx, {
        name: 'site_build_hook_created',
        actorId: userOf(actor),
        ...siteScope(site),
        data: { buildHookId: row.id, name: row.name, gitBranch: row.git_branch },
      });
      return { ...toBuildHook(row), url: new URL(`/api/v1/build-hooks/${token}`, config.url).href };
    }),
  );

  /** A build hook of the path's site, for those who manage the site. */
  const buildHookOf = (async (actor, params) => {
    const granted = await access.siteManager(actor, params);
    const row = await db
      .selectFrom('build_hooks')
      .select('id')
      .where('id', '=', param(params, 'buildHookId'))
      .where('site_id', '=', granted.site.id)
      .executeTakeFirst();
    if (!row) throw httpError('BUILD_HOOK_NOT_FOUND', 'Build hook not found');
    return granted;
  }) satisfies Guard;

  parts.handle(api.deleteBuildHook, buildHookOf, async ({ actor, site, params }) => {
    await db.transaction().execute(async (trx) => {
      const deleted = await trx
        .deleteFrom('build_hooks')
        .where('id', '=', params.buildHookId)
        .where('site_id', '=', site.id)
        .returningAll()
        .executeTakeFirst();
      if (!deleted) throw httpError('BUILD_HOOK_NOT_FOUND', 'Build hook not found');
      await recordEvent(trx, {
        name: 'site_build_hook_deleted',
        actorId: userOf(actor),
        ...siteScope(site),
        data: { buildHookId: deleted.id, name: deleted.name, gitBranch: deleted.git_branch },
      });
    });
  });

  parts.handle(api.callBuildHook, access.anyone, async ({ params }) =>
    db.transaction().execute(async (trx) => {
      const hook = await trx
        .updateTable('build_hooks')
        .set({ last_used_at: now() })
        .where('token_hash', '=', lookupHash(params.token))
        .returningAll()
        .executeTakeFirst();
      if (!hook) throw httpError('BUILD_HOOK_NOT_FOUND', 'Build hook not found');
      const site = await trx.selectFrom('sites').selectAll().where('id', '=', hook.site_id).executeTakeFirstOrThrow();
      const repository = await buildableRepository(parts, trx, site);
      const triggeredBy = `the build hook '${hook.name}'`;
      const row = await queueBuild(trx, site, repository, {
        gitBranch: hook.git_branch,
        trigger: 'hook',
        actorId: null,
        triggeredBy,
        via: `The build hook '${hook.name}'`,
      });
      return { buildId: row.id };
    }),
  );
}
