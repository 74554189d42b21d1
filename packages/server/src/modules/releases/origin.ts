import type { ReleaseSource, ReleaseUploader } from '@wharf/contract';
import type { Actor } from '../../access/actor.ts';
import type { Executor } from '../../db/schema.ts';
import { readJson } from '../../lib/json.ts';

/**
 * Who is uploading, named as they are now: the release keeps these names, so that its page and the
 * audit log still say who it was after the token is deleted or the user renamed.
 */
export async function uploaderOf(db: Executor, actor: Actor): Promise<ReleaseUploader | null> {
  if (actor.kind === 'siteToken') {
    const token = await db.selectFrom('site_tokens').select('name').where('id', '=', actor.tokenId).executeTakeFirst();
    return {
      kind: 'siteToken',
      name: token?.name ?? 'a deleted site token',
      userId: null,
      tokenName: token?.name ?? null,
    };
  }
  if (actor.kind === 'anonymous') return null;
  const user = await db.selectFrom('users').select('name').where('id', '=', actor.userId).executeTakeFirst();
  const name = user?.name ?? 'a former user';
  if (actor.kind === 'session') return { kind: 'user', name, userId: actor.userId, tokenName: null };
  const token = await db.selectFrom('api_tokens').select('name').where('id', '=', actor.tokenId).executeTakeFirst();
  return { kind: 'apiToken', name, userId: actor.userId, tokenName: token?.name ?? null };
}

/** What a deploy records of its uploader and source, and carries to its release. */
export interface DeployOrigin {
  uploader: ReleaseUploader | null;
  source: ReleaseSource;
}

/** The origin a deploy row recorded at its start. */
export function originOfDeploy(row: { uploader: string | null; source: string }): DeployOrigin {
  return {
    uploader: row.uploader ? readJson<ReleaseUploader>(row.uploader) : null,
    source: readJson<ReleaseSource>(row.source) ?? {},
  };
}

/** The deploy's origin as stored, for its rows. */
export function originColumns(origin: DeployOrigin) {
  return { uploader: origin.uploader ? JSON.stringify(origin.uploader) : null, source: JSON.stringify(origin.source) };
}

/**
 * What the audit log keeps of an upload's origin with its events: the uploader by name (a site
 * token is no user, and was "The system" before), the CI run and the commit.
 */
export function auditOrigin({ uploader, source }: DeployOrigin) {
  return {
    ...(uploader ? { uploader } : {}),
    ...(source.ciRunUrl ? { ciRunUrl: source.ciRunUrl } : {}),
    ...(source.commit ? { commit: source.commit } : {}),
  };
}
