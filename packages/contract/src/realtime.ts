import type { BuildLogLine } from './entities/build.ts';
import type { EventName } from './events.ts';

/**
 * The real-time channel (socket.io at `/socket.io`): the console joins the room of its current
 * organization and of the site it shows, and receives every event of that scope as it happens.
 */
export const realtimeRooms = ['org', 'site', 'build'] as const;
export type RealtimeRoom = (typeof realtimeRooms)[number];

/** Sent by the client: `socket.emit('join', { room: 'org', id })` and `socket.emit('leave', …)`. */
export interface RoomRequest {
  room: RealtimeRoom;
  id: string;
}

/** Received by the client on the `event` channel. */
export interface RealtimeMessage {
  /** The id of the outbox event: the same message may arrive twice after a reconnect, never differently. */
  id: string;
  name: EventName;
  orgId: string | null;
  teamId: string | null;
  siteId: string | null;
  data: Record<string, unknown>;
  /** The entity the event is about, as the API answers it (a team for team_added, a release for site_release_created…); null once deleted. */
  entity: unknown;
  createdAt: string;
}

/**
 * Received by the client on the `buildLog` channel, in the room of a build (`{ room: 'build', id }`):
 * lines of its log as they are written. Lines may repeat after a reconnect; `seq` tells them apart.
 */
export interface BuildLogMessage {
  buildId: string;
  lines: BuildLogLine[];
}

export const REALTIME_PATH = '/socket.io';
