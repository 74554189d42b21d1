import { allRoutes, api } from '@wharf/contract';
import { type Guard, param } from '../../access/guards.ts';
import { userOf } from '../../access/rules.ts';
import type { WharfApp } from '../../wharfApp.ts';
import { createApiToken, deleteApiToken, findOwnToken, toApiToken, updateApiToken } from './service.ts';

export function apiTokenRoutes(app: WharfApp) {
  const { db, sealer } = app;

  app.handle(api.listApiTokens, app.access.person, async ({ userId }) => {
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

  app.handle(api.getApiToken, ownToken, ({ token }) => toApiToken(sealer, token));

  app.handle(api.createApiToken, app.access.person, ({ userId, body }) =>
    createApiToken(db, sealer, userId, {
      name: body.name,
      activatesAt: body.activesAt ?? new Date().toISOString(),
      expiresAt: body.expiresAt ?? null,
      scopes: body.scopes,
    }),
  );

  app.handle(api.updateApiToken, ownToken, ({ userId, params, body }) =>
    updateApiToken(db, sealer, userId, params.apiTokenId, body),
  );

  app.handle(api.deleteApiToken, ownToken, ({ userId, params }) => deleteApiToken(db, userId, params.apiTokenId));

  app.handle(api.listApiEndpoints, app.access.person, () =>
    allRoutes.map(([, route]) => ({
      method: route.method,
      path: route.path,
      apiScope: route.scope,
      summary: route.summary,
    })),
  );
}
