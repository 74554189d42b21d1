import { api, CODE_HOSTS, type CodeHost, type CodeHostAccount, type CodeHostRepository } from '@wharf/contract';
import type { Db } from '../../db/schema.ts';
import type { PartsOf } from '../../features/parts.ts';
import { httpError } from '../../http/errors.ts';
import { now } from '../../lib/ids.ts';
import type { AccessTokens, SignInProvider } from './providers/provider.ts';
import { CodeHostAnswerError, type RepositoryApiCall } from './providers/repositoryApi.ts';

/** Pages of repositories read at most: 1,000 at GitHub and GitLab, 500 at Gitea. */
const PAGE_LIMIT = 10;

/** The columns of an account's repository tokens, sealed. */
const tokenColumns = (parts: PartsOf<'sealer'>, tokens: AccessTokens) => ({
  repository_token_sealed: parts.sealer.seal(tokens.accessToken),
  repository_refresh_sealed: tokens.refreshToken ? parts.sealer.seal(tokens.refreshToken) : null,
  repository_token_expires_at: tokens.expiresAt,
});

/** Keeps the tokens a code host granted with repository access on the account they belong to. */
export async function grantRepositoryAccess(parts: PartsOf<'db' | 'sealer'>, identityId: string, tokens: AccessTokens) {
  await parts.db
    .updateTable('identities')
    .set({ ...tokenColumns(parts, tokens), repository_access_at: now() })
    .where('id', '=', identityId)
    .execute();
}

function forget(db: Db, userId: string, provider: CodeHost) {
  return db
    .updateTable('identities')
    .set({
      repository_token_sealed: null,
      repository_refresh_sealed: null,
      repository_token_expires_at: null,
      repository_access_at: null,
    })
    .where('user_id', '=', userId)
    .where('provider', '=', provider)
    .execute();
}

/** The code hosts this installation signs in with, and the user's latest account at each. */
export async function codeHostAccounts(
  db: Db,
  providers: Map<string, SignInProvider>,
  userId: string,
): Promise<CodeHostAccount[]> {
  const rows = await db
    .selectFrom('identities')
    .select(['provider', 'login', 'repository_access_at'])
    .where('user_id', '=', userId)
    .orderBy('repository_access_at', 'desc')
    .orderBy('created_at', 'desc')
    .execute();
  return CODE_HOSTS.flatMap((provider) => {
    const url = providers.get(provider)?.repositories?.url;
    if (!url) return [];
    const account = rows.find((row) => row.provider === provider);
    return {
      provider,
      url,
      login: account?.login ?? null,
      repositoryAccess: account?.repository_access_at != null,
      repositoryAccessAt: account?.repository_access_at ?? null,
    };
  });
}

/** How long before its end an access token is renewed rather than used. */
const RENEW_BEFORE_MS = 60_000;

/**
 * The API of a code host this installation signs in with, called with the token the user's
 * account there granted: renewed with its refresh token when it ends or the host stops taking it
 * (GitLab's and Gitea's expire), forgotten when that fails (revoked). Every failure becomes the
 * API's error: the person is told to grant access again, that the host refused (its own words),
 * or that it did not answer.
 */
export async function repositoryApiOf(
  parts: PartsOf<'db' | 'sealer'>,
  providers: Map<string, SignInProvider>,
  userId: string,
  provider: CodeHost,
) {
  const host = providers.get(provider);
  const repositories = host?.repositories;
  if (!host || !repositories)
    throw httpError('CODE_HOST_NOT_CONFIGURED', `This installation does not sign in with ${provider}`);
  const account = await parts.db
    .selectFrom('identities')
    .select(['id', 'repository_token_sealed', 'repository_refresh_sealed', 'repository_token_expires_at'])
    .where('user_id', '=', userId)
    .where('provider', '=', provider)
    .where('repository_token_sealed', 'is not', null)
    .orderBy('repository_access_at', 'desc')
    .executeTakeFirst();
  if (!account?.repository_token_sealed) throw accessMissing(host);
  let tokens: AccessTokens = {
    accessToken: parts.sealer.open(account.repository_token_sealed),
    refreshToken: account.repository_refresh_sealed ? parts.sealer.open(account.repository_refresh_sealed) : null,
    expiresAt: account.repository_token_expires_at,
  };
  const renew = async () => {
    if (!tokens.refreshToken) return false;
    try {
      tokens = await repositories.refresh(tokens.refreshToken);
    } catch {
      return false;
    }
    await parts.db.updateTable('identities').set(tokenColumns(parts, tokens)).where('id', '=', account.id).execute();
    return true;
  };
  if (tokens.expiresAt && Date.parse(tokens.expiresAt) < Date.now() + RENEW_BEFORE_MS) await renew();

  /** `refused` names the work in the message; a 404 while setting up means the account may not administer it. */
  const guarded = async <T>(work: (call: RepositoryApiCall) => Promise<T>, refused: string, settingUp = false) => {
    const attempt = () => work(repositories.api(tokens.accessToken));
    try {
      try {
        return await attempt();
      } catch (error) {
        if (error instanceof CodeHostAnswerError && error.status === 401 && (await renew())) return await attempt();
        throw error;
      }
    } catch (error) {
      if (!(error instanceof CodeHostAnswerError)) throw error;
      if (error.status === 401) {
        await forget(parts.db, userId, provider);
        throw accessMissing(host);
      }
      if (error.status === null || error.status >= 500)
        throw httpError('CODE_HOST_UNAVAILABLE', `${host.label} could not be asked: ${error.message}`);
      if (error.status === 404 && !settingUp)
        throw httpError('CODE_HOST_REPOSITORY_NOT_FOUND', `${host.label} shows this account no such repository`);
      throw httpError('CODE_HOST_REFUSED', `${host.label} refused ${refused}: ${error.message}`);
    }
  };
  return {
    label: host.label,
    dialect: repositories.dialect,
    guarded,
    /** The account's token when it lasts (GitHub's): a site may report with a copy. One that expires may not. */
    lastingToken: () => (tokens.expiresAt === null ? tokens.accessToken : null),
  };
}

const accessMissing = (host: SignInProvider) =>
  httpError(
    'REPOSITORY_ACCESS_MISSING',
    `Allow Wharf to read your repositories at ${host.label} first (your account there has not, or took it back)`,
  );

/** Every repository the account may read, last pushed first, up to PAGE_LIMIT pages. */
export async function listRepositories(api: Awaited<ReturnType<typeof repositoryApiOf>>) {
  return api.guarded(async (call) => {
    const repositories: CodeHostRepository[] = [];
    for (let page = 1; page <= PAGE_LIMIT; page++) {
      const batch = await api.dialect.page(call, page);
      repositories.push(...batch);
      if (batch.length < api.dialect.pageSize) return { repositories: lastPushedFirst(repositories), truncated: false };
    }
    return { repositories: lastPushedFirst(repositories), truncated: true };
  }, 'to list the repositories');
}

const lastPushedFirst = (repositories: CodeHostRepository[]) =>
  repositories.toSorted((a, b) => (b.pushedAt ?? '').localeCompare(a.pushedAt ?? ''));

export function repositoryAccessRoutes(
  parts: PartsOf<'access' | 'db' | 'handle' | 'sealer'>,
  providers: Map<string, SignInProvider>,
) {
  parts.handle(api.listCodeHostAccounts, parts.access.person, ({ userId }) =>
    codeHostAccounts(parts.db, providers, userId),
  );
  parts.handle(api.listCodeHostRepositories, parts.access.person, async ({ userId, params }) =>
    listRepositories(await repositoryApiOf(parts, providers, userId, params.provider)),
  );
  parts.handle(api.forgetRepositoryAccess, parts.access.person, async ({ userId, params }) => {
    await forget(parts.db, userId, params.provider);
  });
}
