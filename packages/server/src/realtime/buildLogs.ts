import type { BuildLogMessage } from '@wharf/contract';
import type { Server } from 'socket.io';
import type { Db } from '../db/schema.ts';

const FOLLOW_EVERY_MS = 400;
const BUILD_ROOM = 'build:';

export type BuildLogFollower = ReturnType<typeof followBuildLogs>;

interface Followed {
  /** The next line to send. */
  next: number;
  /** When it was first followed: kept a while before its room exists (the join completes after). */
  since: number;
}

const JOIN_GRACE_MS = 5_000;

/**
 * Sends the lines of build logs to the sockets in each build's room as the builder writes them:
 * whichever node runs the build, every API process reads the lines from the database for the
 * rooms it holds (a few times a second, only while someone watches). A socket gets the lines
 * from the moment it joined (`startFollowing` before the join is acknowledged); what came before,
 * it reads from the API after the acknowledgement, so no line falls between the two.
 */
export function followBuildLogs(io: Server, db: Db, log: { warn(details: object, message: string): void }) {
  const followed = new Map<string, Followed>();
  let busy = false;

  const watchedBuilds = () =>
    [...io.of('/').adapter.rooms.keys()]
      .filter((room) => room.startsWith(BUILD_ROOM))
      .map((room) => room.slice(BUILD_ROOM.length));

  async function startFollowing(buildId: string) {
    if (followed.has(buildId)) return;
    const build = await db.selectFrom('builds').select('log_lines').where('id', '=', buildId).executeTakeFirst();
    followed.set(buildId, { next: build?.log_lines ?? 0, since: Date.now() });
  }

  async function sendNewLines(buildId: string, state: Followed) {
    const lines = await db
      .selectFrom('build_log')
      .select(['seq', 'at', 'text'])
      .where('build_id', '=', buildId)
      .where('seq', '>=', state.next)
      .orderBy('seq')
      .limit(1000)
      .execute();
    if (lines.length === 0) return;
    state.next = lines.at(-1)!.seq + 1;
    const message: BuildLogMessage = { buildId, lines };
    io.to(`${BUILD_ROOM}${buildId}`).emit('buildLog', message);
  }

  async function pass() {
    const watched = new Set(watchedBuilds());
    for (const [id, state] of followed)
      if (!watched.has(id) && Date.now() - state.since > JOIN_GRACE_MS) followed.delete(id);
    for (const [id, state] of followed) if (watched.has(id)) await sendNewLines(id, state);
  }

  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    pass()
      .catch((err) => log.warn({ err }, 'following build logs failed'))
      .finally(() => {
        busy = false;
      });
  }, FOLLOW_EVERY_MS);
  timer.unref();
  return { startFollowing, stop: () => clearInterval(timer) };
}
