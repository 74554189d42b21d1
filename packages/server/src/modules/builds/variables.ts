import { api, type BuildVariable, type RouteBody } from '@wharf/contract';
import { type Guard, param } from '../../access/guards.ts';
import { userOf } from '../../access/rules.ts';
import type { Database, Executor } from '../../db/schema.ts';
import { isUniqueViolation } from '../../db/uniqueViolation.ts';
import { recordEvent } from '../../events/outbox.ts';
import type { PartsOf } from '../../features/parts.ts';
import { httpError } from '../../http/errors.ts';
import { newId, now } from '../../lib/ids.ts';
import type { Sealer } from '../../lib/secrets.ts';
import { siteScope } from '../sites/siteEvents.ts';

type VariableRow = Database['build_variables'];

const toBuildVariable = (sealer: Sealer, row: VariableRow): BuildVariable => ({
  _id: row.id,
  key: row.key,
  context: row.context,
  gitBranch: row.context === 'branch' ? row.git_branch : null,
  secret: row.secret === 1,
  // A secret is written, never read back: builds alone open it.
  value: row.secret === 1 ? null : sealer.open(row.value_sealed),
  updatedAt: row.updated_at,
});

/** What the audit log keeps of a variable: its name and where it applies, never its value. */
const eventData = (row: VariableRow) => ({
  buildVariableId: row.id,
  key: row.key,
  context: row.context,
  ...(row.context === 'branch' ? { gitBranch: row.git_branch } : {}),
  masked: row.secret === 1,
});

const taken = (key: string) =>
  httpError('BUILD_VARIABLE_TAKEN', `The variable ${key} is set for this context already: change it instead`);

/**
 * The variables a build of `gitBranch` gets, by name: those of every build, overridden by those of
 * its context (production for the production branch, previews for the others), overridden by
 * those of its own branch. Secret values are answered apart, so the log can mask them.
 */
export async function variablesOfBuild(
  db: Executor,
  sealer: Sealer,
  siteId: string,
  gitBranch: string,
  productionBranch: string,
) {
  const rows = await db.selectFrom('build_variables').selectAll().where('site_id', '=', siteId).execute();
  const context = gitBranch === productionBranch ? 'production' : 'previews';
  const rank = (row: VariableRow) =>
    row.context === 'all'
      ? 0
      : row.context === context
        ? 1
        : row.context === 'branch' && row.git_branch === gitBranch
          ? 2
          : -1;
  const chosen = new Map<string, { rank: number; row: VariableRow }>();
  for (const row of rows) {
    const rowRank = rank(row);
    if (rowRank < 0 || (chosen.get(row.key)?.rank ?? -1) > rowRank) continue;
    chosen.set(row.key, { rank: rowRank, row });
  }
  const variables: Record<string, string> = {};
  const secrets: string[] = [];
  for (const [key, { row }] of chosen) {
    variables[key] = sealer.open(row.value_sealed);
    if (row.secret === 1) secrets.push(variables[key]);
  }
  return { variables, secrets, context };
}

const needs = ['access', 'db', 'handle', 'sealer'] as const;

/** The variables of a site's builds: listed (secrets without their values), added, changed, deleted. */
export function buildVariableRoutes(parts: PartsOf<(typeof needs)[number]>) {
  const { db, access, sealer } = parts;

  const variableOf = (async (actor, params) => {
    const granted = await access.siteManager(actor, params);
    const row = await db
      .selectFrom('build_variables')
      .selectAll()
      .where('id', '=', param(params, 'buildVariableId'))
      .where('site_id', '=', granted.site.id)
      .executeTakeFirst();
    if (!row) throw httpError('BUILD_VARIABLE_NOT_FOUND', 'Build variable not found');
    return { ...granted, variable: row };
  }) satisfies Guard;

  parts.handle(api.listBuildVariables, access.siteViewer, async ({ site }) => {
    const rows = await db
      .selectFrom('build_variables')
      .selectAll()
      .where('site_id', '=', site.id)
      .orderBy('key')
      .orderBy('context')
      .orderBy('git_branch')
      .execute();
    return rows.map((row) => toBuildVariable(sealer, row));
  });

  parts.handle(api.createBuildVariable, access.siteManager, async ({ actor, site, body }) => {
    const at = now();
    const row: VariableRow = {
      id: newId(),
      site_id: site.id,
      key: body.key,
      context: body.context,
      git_branch: body.gitBranch ?? '',
      value_sealed: sealer.seal(body.value),
      secret: body.secret ? 1 : 0,
      created_at: at,
      updated_at: at,
    };
    try {
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('build_variables').values(row).execute();
        await recordEvent(trx, {
          name: 'site_build_variable_created',
          actorId: userOf(actor),
          ...siteScope(site),
          data: eventData(row),
        });
      });
    } catch (error) {
      throw isUniqueViolation(error) ? taken(body.key) : error;
    }
    return toBuildVariable(sealer, row);
  });

  parts.handle(api.updateBuildVariable, variableOf, async ({ actor, site, variable, body }) => {
    const changes = changesOf(sealer, variable, body);
    try {
      const updated = await db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable('build_variables')
          .set(changes)
          .where('id', '=', variable.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        await recordEvent(trx, {
          name: 'site_build_variable_updated',
          actorId: userOf(actor),
          ...siteScope(site),
          data: eventData(row),
        });
        return row;
      });
      return toBuildVariable(sealer, updated);
    } catch (error) {
      throw isUniqueViolation(error) ? taken(variable.key) : error;
    }
  });

  parts.handle(api.deleteBuildVariable, variableOf, async ({ actor, site, variable }) => {
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('build_variables').where('id', '=', variable.id).execute();
      await recordEvent(trx, {
        name: 'site_build_variable_deleted',
        actorId: userOf(actor),
        ...siteScope(site),
        data: eventData(variable),
      });
    });
  });
}

/** A change of a variable: a secret keeps its value unless a new one came; a value turned secret stays as it was. */
function changesOf(sealer: Sealer, variable: VariableRow, body: RouteBody<typeof api.updateBuildVariable>) {
  const secret = body.secret ?? variable.secret === 1;
  if (variable.secret === 1 && !secret && body.value === undefined)
    throw httpError('VALIDATION_FAILED', 'A secret made plain needs its value again', [
      { field: 'value', message: 'Give the value: a secret’s is never read back' },
    ]);
  return {
    context: body.context,
    git_branch: body.gitBranch ?? '',
    secret: secret ? 1 : 0,
    ...(body.value !== undefined ? { value_sealed: sealer.seal(body.value) } : {}),
    updated_at: now(),
  };
}
