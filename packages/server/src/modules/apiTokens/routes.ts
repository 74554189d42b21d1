import { allRoutes, api } from '@wharf/contract';
import { userOf } from '../../access/rules.ts';
import type { WharfApp } from '../../wharfApp.ts';
import { createApiToken, deleteApiToken, findOwnToken, toApiToken, updateApiToken } from './service.ts';

export function apiTokenRoutes(app: WharfApp) {
  const { db, sealer } = app;

  app.handle(api.listApiTokens, async ({ actor }) => {
    const rows = await db
      .selectFrom('api_tokens')
      .selectAll()
      .where('user_id', '=', userOf(actor))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map((row) => toApiToken(sealer, row));
  });

  app.handle(api.getApiToken, async ({ actor, params }) =>
    toApiToken(sealer, await findOwnToken(db, userOf(actor), params.apiTokenId)),
  );

  app.handle(api.createApiToken, ({ actor, body }) =>
    createApiToken(db, sealer, userOf(actor), {
      name: body.name,
      activatesAt: body.activesAt ?? new Date().toISOString(),
      expiresAt: body.expiresAt ?? null,
      scopes: body.scopes,
    }),
  );

  app.handle(api.updateApiToken, ({ actor, params, body }) =>
    updateApiToken(db, sealer, userOf(actor), params.apiTokenId, body),
  );

  app.handle(api.deleteApiToken, ({ actor, params }) => deleteApiToken(db, userOf(actor), params.apiTokenId));

  app.handle(api.listApiEndpoints, () =>
    allRoutes.map(([, route]) => ({
      method: route.method,
      path: route.path,
      apiScope: route.scope,
      summary: route.summary,
    })),
  );
}
