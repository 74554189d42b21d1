import { fastifyCookie } from '@fastify/cookie';
import { REALTIME_PATH, type RealtimeMessage, type RoomRequest, realtimeRooms } from '@wharf/contract';
import { Server, type Socket } from 'socket.io';
import { type Actor, SESSION_COOKIE, sessionActor } from '../access/actor.ts';
import { mustBeOrgMember, mustSeeSite } from '../access/rules.ts';
import type { Db } from '../db/schema.ts';
import type { OutboxEvent } from '../events/outbox.ts';
import { feature } from '../features/feature.ts';
import type { PartsOf } from '../features/parts.ts';
import { HttpError, httpError } from '../http/errors.ts';
import { requestHost } from '../http/requestHost.ts';
import { readJson } from '../lib/json.ts';
import { type BuildLogFollower, followBuildLogs } from './buildLogs.ts';
import { entityOf } from './entities.ts';

async function cookieActor(
  parts: PartsOf<'config' | 'db' | 'dispatcher' | 'fastify' | 'lifecycle' | 'log'>,
  cookieHeader: string | undefined,
): Promise<Actor | null> {
  const sessionId = cookieHeader ? fastifyCookie.parse(cookieHeader)[SESSION_COOKIE] : undefined;
  return sessionId ? sessionActor(parts.db, sessionId) : null;
}

function isRoomRequest(value: unknown): value is RoomRequest {
  const request = value as RoomRequest;
  return typeof request?.id === 'string' && realtimeRooms.includes(request.room);
}

/** Joining a room needs the right to read what it is about: the organization, or the site. */
async function mayJoin(
  parts: PartsOf<'config' | 'db' | 'dispatcher' | 'fastify' | 'lifecycle' | 'log'>,
  actor: Actor,
  request: RoomRequest,
) {
  if (request.room === 'org') await mustBeOrgMember(parts.db, actor, request.id);
  else if (request.room === 'site') await mustSeeSite(parts.db, actor, request.id);
  else await mustSeeSite(parts.db, actor, await siteOfBuild(parts.db, request.id));
}

/** The site a build belongs to; a build that does not exist is refused as a site that does not. */
async function siteOfBuild(db: Db, buildId: string) {
  const build = await db.selectFrom('builds').select('site_id').where('id', '=', buildId).executeTakeFirst();
  if (!build) throw httpError('BUILD_NOT_FOUND', 'Build not found');
  return build.site_id;
}

/** A failure that is not a refusal (a database down, a bug): logged with where it happened. */
function logFailure(
  parts: PartsOf<'config' | 'db' | 'dispatcher' | 'fastify' | 'lifecycle' | 'log'>,
  socket: Socket,
  event: string,
  error: unknown,
) {
  parts.log.error(
    { err: error, host: requestHost(socket.handshake), path: REALTIME_PATH, event },
    'real-time handler failed',
  );
}

function handleRooms(
  parts: PartsOf<'config' | 'db' | 'dispatcher' | 'fastify' | 'lifecycle' | 'log'>,
  socket: Socket,
  actor: Actor,
  buildLogs: BuildLogFollower,
) {
  socket.on('join', async (request: unknown, ack?: (answer: { ok: boolean; message?: string }) => void) => {
    if (!isRoomRequest(request)) return ack?.({ ok: false, message: 'Send { room: "org" | "site", id }' });
    try {
      await mayJoin(parts, actor, request);
      if (request.room === 'build') await buildLogs.startFollowing(request.id);
      await socket.join(`${request.room}:${request.id}`);
      ack?.({ ok: true });
    } catch (error) {
      if (error instanceof HttpError) return ack?.({ ok: false, message: error.message });
      logFailure(parts, socket, 'join', error);
      ack?.({ ok: false, message: 'Something went wrong on our side; it has been logged' });
    }
  });
  socket.on('leave', async (request: unknown, ack?: (answer: { ok: boolean }) => void) => {
    try {
      if (isRoomRequest(request)) await socket.leave(`${request.room}:${request.id}`);
      ack?.({ ok: true });
    } catch (error) {
      logFailure(parts, socket, 'leave', error);
      ack?.({ ok: false });
    }
  });
}

/**
 * What every member of a room may read of an event. A submission's fields are visitors' personal
 * data: only those who manage the site read them, through the API, so the rooms hear of it without.
 */
function roomData(event: OutboxEvent): Record<string, unknown> {
  const data = readJson<Record<string, unknown>>(event.data);
  if (event.name !== 'form_submitted') return data;
  const { fields: _fields, ...rest } = data;
  return rest;
}

/**
 * Real-time events for the console over socket.io: a signed-in browser joins the rooms of its
 * organization and site and receives each outbox event of them, with the entity it concerns.
 */
function attachRealtime(parts: PartsOf<'config' | 'db' | 'dispatcher' | 'fastify' | 'lifecycle' | 'log'>) {
  const io = new Server(parts.fastify.server, {
    path: REALTIME_PATH,
    serveClient: false,
    // Any process of a cluster may take a request: polling's requests of one session would
    // reach processes that never saw its handshake. A WebSocket stays with the one it reached.
    transports: ['websocket'],
    // Only the console's own pages may open the socket with the user's session; none while draining.
    allowRequest: (request, allow) =>
      allow(
        null,
        parts.lifecycle.phase !== 'draining' &&
          (!request.headers.origin || request.headers.origin === parts.config.url.origin),
      ),
  });
  // Sockets live as long as the page: a stopping server closes them, and the console reconnects elsewhere.
  parts.lifecycle.onDrain(() => io.disconnectSockets(true));
  io.use(async (socket, next) => {
    const actor = await cookieActor(parts, socket.request.headers.cookie).catch((error) => {
      logFailure(parts, socket, 'connect', error);
      return null;
    });
    if (!actor) return next(new Error('Sign in first'));
    socket.data.actor = actor;
    next();
  });
  const buildLogs = followBuildLogs(io, parts.db, parts.log);
  io.on('connection', (socket) => handleRooms(parts, socket, socket.data.actor as Actor, buildLogs));

  const broadcast = async (events: OutboxEvent[]) => {
    for (const event of events) {
      if (!event.org_id && !event.site_id) continue;
      const message: RealtimeMessage = {
        id: event.id,
        name: event.name as RealtimeMessage['name'],
        orgId: event.org_id,
        teamId: event.team_id,
        siteId: event.site_id,
        data: roomData(event),
        entity: await entityOf(parts.db, parts.config, event).catch((err) => {
          // The event still goes out, without its entity: the console then reloads what it shows.
          parts.log.error({ err, event: event.name }, 'real-time event without its entity');
          return null;
        }),
        createdAt: event.created_at,
      };
      const rooms = [event.org_id && `org:${event.org_id}`, event.site_id && `site:${event.site_id}`].filter(
        Boolean,
      ) as string[];
      io.to(rooms).emit('event', message);
    }
  };
  parts.dispatcher.addLive({ name: 'real-time', consume: broadcast });
  parts.fastify.addHook('onClose', async () => {
    buildLogs.stop();
    await new Promise<void>((resolve) => io.close(() => resolve()));
  });
  return { io };
}

/** The console's live updates, on nodes of the API role. */
export const realtimeFeature = feature({
  name: 'realtime',
  needs: ['config', 'db', 'dispatcher', 'fastify', 'lifecycle', 'log'],
  onApiNodes: attachRealtime,
});
