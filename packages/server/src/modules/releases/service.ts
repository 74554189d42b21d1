import type { Database, Executor } from '../../db/schema.ts';
import { recordEvent } from '../../events/outbox.ts';
import { siteScope } from '../sites/siteEvents.ts';

const CHUNK = 500;

/**
 * Deletes releases with their files' rows and their places in branch histories, and records
 * `site_release_deleted` for each. The caller made sure no branch serves them. Their blobs stay
 * until the garbage collection finds them unused.
 */
export async function deleteReleaseRows(
  trx: Executor,
  site: Pick<Database['sites'], 'id' | 'org_id' | 'team_id'>,
  releases: { id: string; name: string }[],
  input: { actorId: string | null; reason?: string },
) {
  for (let start = 0; start < releases.length; start += CHUNK) {
    const ids = releases.slice(start, start + CHUNK).map((release) => release.id);
    await trx.deleteFrom('branch_releases').where('release_id', 'in', ids).execute();
    await trx.deleteFrom('release_files').where('release_id', 'in', ids).execute();
    await trx.deleteFrom('releases').where('id', 'in', ids).execute();
  }
  for (const release of releases) {
    await recordEvent(trx, {
      name: 'site_release_deleted',
      actorId: input.actorId,
      ...siteScope(site),
      data: { releaseId: release.id, name: release.name, ...(input.reason ? { reason: input.reason } : {}) },
    });
  }
}
