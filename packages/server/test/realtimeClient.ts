import type { RealtimeMessage } from '@wharf/contract';
import { io, type Socket } from 'socket.io-client';

/** A console's real-time connection, with the cookie of a signed-in browser when given. */
export function connectRealtime(url: string, cookie?: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = io(url, {
      path: '/socket.io',
      transports: ['websocket'],
      extraHeaders: cookie ? { cookie } : {},
      reconnection: false,
    });
    socket.on('connect', () => resolve(socket));
    socket.on('connect_error', (error) => reject(error));
  });
}

/** The next event of this name the connection receives. */
export function nextEvent(socket: Socket, name: string) {
  return new Promise<RealtimeMessage>((resolve) => {
    const listener = (message: RealtimeMessage) => {
      if (message.name !== name) return;
      socket.off('event', listener);
      resolve(message);
    };
    socket.on('event', listener);
  });
}
