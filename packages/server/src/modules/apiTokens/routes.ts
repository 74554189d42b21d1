import { allRoutes, api } from '@wharf/contract';
import { type Guard, param } from '../../access/guards.ts';
import { userOf } from '../../access/rules.ts';
import { feature } from '../../features/feature.ts';
import type { PartsOf } from '../../features/parts.ts';
import { createApiToken, deleteApiToken, findOwnToken, toApiToken, updateApiToken } from './service.ts';

const needs = ['access', 'db', 'handle', 'sealer'] as const;

function apiTokenRoutes(parts: PartsOf<(typeof needs)[number]>) {
  const { db, sealer } = parts;

  parts.handle(api.listApiTokens, parts.access.person, async ({ userId }) => {
    const rows = await db
      .selectFrom('api_tokens')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map((row) => toApiToken(sealer, row));
  });

  /** One of the caller's own tokens, named by the path; another's is not found. (A token names only itself: `admit`.) */
  const ownToken = (async (actor, params) => {
    const userId = userOf(actor);
    return { userId, token: await findOwnToken(db, userId, param(params, 'apiTokenId')) };
  }) satisfies Guard;

  parts.handle(api.getApiToken, ownToken, ({ token }) => toApiToken(sealer, token));

  parts.handle(api.createApiToken, parts.access.person, ({ userId, body }) =>
    createApiToken(db, sealer, userId, {
      name: body.name,
      activatesAt: body.activesAt ?? new Date().toISOString(),
      expiresAt: body.expiresAt ?? null,
      scopes: body.scopes,
    }),
  );

  parts.handle(api.updateApiToken, ownToken, ({ userId, params, body }) =>
    updateApiToken(db, sealer, userId, params.apiTokenId, body),
  );

  parts.handle(api.deleteApiToken, ownToken, ({ userId, params }) => deleteApiToken(db, userId, params.apiTokenId));

  parts.handle(api.listApiEndpoints, parts.access.person, () =>
    allRoutes.map(([, route]) => ({
      method: route.method,
      path: route.path,
      apiScope: route.scope,
      summary: route.summary,
    })),
  );
}

/** Personal API tokens. */
export const apiTokensFeature = feature({ name: 'apiTokens', needs, routes: apiTokenRoutes });
