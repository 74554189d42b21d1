import { useQueryClient } from '@tanstack/react-query';
import { type BuildLogMessage, REALTIME_PATH, type RealtimeMessage, type RealtimeRoom } from '@wharf/contract';
import { createContext, type ReactNode, useContext, useEffect, useMemo, useRef, useState } from 'react';
import type { Socket } from 'socket.io-client';
import { ignoreMissingChunk, loadChunk } from '../../lib/chunks.ts';
import { checkForNewBuild } from '../../lib/consoleBuild.ts';
import { refetchFailed } from '../../lib/failedQueries.ts';
import { useUser } from '../../lib/session.ts';

type Listener = (message: RealtimeMessage) => void;
type BuildLogListener = (message: BuildLogMessage) => void;

interface Realtime {
  join(room: RealtimeRoom, id: string): () => void;
  subscribe(listener: Listener): () => void;
  subscribeToBuildLogs(listener: BuildLogListener): () => void;
}

const RealtimeContext = createContext<Realtime | null>(null);

/**
 * One socket per signed-in browser tab (spec.md §4 'Real-time'). Rooms are counted, so that two
 * screens showing the same site share one membership; after a reconnect every room is joined again.
 */
export function RealtimeProvider({ children }: { children: ReactNode }) {
  const signedIn = Boolean(useUser().data);
  const client = useQueryClient();
  const [socket, setSocket] = useState<Socket | null>(null);
  const rooms = useRef(new Map<string, number>());
  const listeners = useRef(new Set<Listener>());
  const buildLogListeners = useRef(new Set<BuildLogListener>());

  useEffect(() => {
    if (!signedIn) return;
    let connection: Socket | null = null;
    let left = false;
    // The client library loads with the first signed-in page: the sign-in page does not need it.
    // Missing, it leaves the page without live updates; loadChunk's notice says so.
    loadChunk(() => import('socket.io-client')).then(({ io }) => {
      if (left) return;
      // A WebSocket only: any of a node's processes may take each request, and socket.io's polling
      // needs every request of a session to reach the process that opened it.
      connection = io({ path: REALTIME_PATH, withCredentials: true, transports: ['websocket'] });
      connection.on('connect', () => {
        for (const key of rooms.current.keys()) connection?.emit('join', roomOf(key));
      });
      connection.on('event', (message: RealtimeMessage) => {
        for (const listener of listeners.current) listener(message);
      });
      connection.on('buildLog', (message: BuildLogMessage) => {
        for (const listener of buildLogListeners.current) listener(message);
      });
      // The socket is back, so is the server: what failed meanwhile is asked again.
      connection.io.on('reconnect', () => {
        void refetchFailed(client);
        // The server may have been restarted into a new version: offer it.
        void checkForNewBuild();
      });
      setSocket(connection);
    }, ignoreMissingChunk);
    return () => {
      left = true;
      connection?.disconnect();
      setSocket(null);
    };
  }, [signedIn, client]);

  const realtime = useMemo<Realtime>(
    () => ({
      join(room, id) {
        const key = `${room}:${id}`;
        const count = rooms.current.get(key) ?? 0;
        rooms.current.set(key, count + 1);
        if (count === 0 && socket?.connected) socket.emit('join', { room, id });
        return () => {
          const left = (rooms.current.get(key) ?? 1) - 1;
          if (left > 0) return void rooms.current.set(key, left);
          rooms.current.delete(key);
          if (socket?.connected) socket.emit('leave', { room, id });
        };
      },
      subscribe(listener) {
        listeners.current.add(listener);
        return () => listeners.current.delete(listener);
      },
      subscribeToBuildLogs(listener) {
        buildLogListeners.current.add(listener);
        return () => buildLogListeners.current.delete(listener);
      },
    }),
    [socket],
  );

  return <RealtimeContext.Provider value={realtime}>{children}</RealtimeContext.Provider>;
}

function roomOf(key: string) {
  const [room, id] = key.split(/:(.*)/s) as [RealtimeRoom, string];
  return { room, id };
}

function useRealtime(): Realtime {
  const realtime = useContext(RealtimeContext);
  if (!realtime) throw new Error('Real-time hooks need a RealtimeProvider');
  return realtime;
}

/** Stays in a room while the calling component is shown. */
export function useRealtimeRoom(room: RealtimeRoom, id: string | null) {
  const realtime = useRealtime();
  useEffect(() => (id ? realtime.join(room, id) : undefined), [realtime, room, id]);
}

/** Calls the listener with every event of the rooms joined. */
export function useRealtimeEvents(listener: Listener) {
  const realtime = useRealtime();
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => realtime.subscribe((message) => latest.current(message)), [realtime]);
}

/** Calls the listener with the lines of a build's log as they are written, while the calling component is shown. */
export function useBuildLogLines(buildId: string, listener: BuildLogListener) {
  const realtime = useRealtime();
  const latest = useRef(listener);
  latest.current = listener;
  useRealtimeRoom('build', buildId);
  useEffect(
    () =>
      realtime.subscribeToBuildLogs((message) => {
        if (message.buildId === buildId) latest.current(message);
      }),
    [realtime, buildId],
  );
}
