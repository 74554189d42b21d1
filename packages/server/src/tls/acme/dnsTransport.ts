import dgram from 'node:dgram';
import net from 'node:net';
import type { DnsUpdateSettings } from '../../config/types.ts';

type DnsServer = DnsUpdateSettings['server'];

/** The largest message plain DNS over UDP carries (RFC 1035 §4.2.1); larger ones go over TCP. */
const UDP_LIMIT = 512;
const UDP_ATTEMPTS = 3;
const TRUNCATED = 1 << 9;

export const serverName = (server: DnsServer) =>
  net.isIPv6(server.host) ? `[${server.host}]:${server.port}` : `${server.host}:${server.port}`;

/**
 * Sends one message and returns the answer with the same ID: over UDP, tried again when no answer
 * comes, and over TCP when the message is too large for UDP or the UDP answer was truncated.
 */
export async function exchange(server: DnsServer, message: Buffer, timeoutMs: number): Promise<Buffer> {
  if (message.length <= UDP_LIMIT) {
    const answer = await overUdp(server, message, timeoutMs);
    if ((answer.readUInt16BE(2) & TRUNCATED) === 0) return answer;
  }
  return overTcp(server, message, timeoutMs);
}

function overUdp(server: DnsServer, message: Buffer, timeoutMs: number) {
  return new Promise<Buffer>((resolve, reject) => {
    const socket = dgram.createSocket(net.isIPv6(server.host) ? 'udp6' : 'udp4');
    const id = message.readUInt16BE(0);
    let attempts = 0;
    let timer: NodeJS.Timeout | undefined;
    let finished = false;
    const finish = (error: Error | null, answer?: Buffer) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      socket.close();
      if (error) reject(error);
      else resolve(answer!);
    };
    const send = () => {
      if (attempts++ === UDP_ATTEMPTS) {
        finish(new Error(`No answer from the DNS server ${serverName(server)} over UDP (${UDP_ATTEMPTS} tries)`));
        return;
      }
      socket.send(message);
      timer = setTimeout(send, timeoutMs / UDP_ATTEMPTS);
    };
    // A connected socket only hears the server; a stray answer with another ID is not ours.
    socket.on('message', (answer) => {
      if (answer.length >= 12 && answer.readUInt16BE(0) === id) finish(null, answer);
    });
    socket.on('error', (error) => finish(new Error(`The DNS server ${serverName(server)}: ${error.message}`)));
    socket.connect(server.port, server.host, send);
  });
}

function overTcp(server: DnsServer, message: Buffer, timeoutMs: number) {
  return new Promise<Buffer>((resolve, reject) => {
    const socket = net.connect({ host: server.host, port: server.port });
    let received = Buffer.alloc(0);
    const fail = (reason: string) => {
      socket.destroy();
      reject(new Error(`The DNS server ${serverName(server)} over TCP: ${reason}`));
    };
    socket.setTimeout(timeoutMs, () => fail(`no answer within ${timeoutMs} ms`));
    socket.on('error', (error) => fail(error.message));
    socket.on('end', () => fail('the connection closed before the whole answer came'));
    // Over TCP each message is preceded by its length (RFC 1035 §4.2.2).
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (received.length < 2 || received.length < 2 + received.readUInt16BE(0)) return;
      socket.removeAllListeners('end');
      socket.end();
      const answer = received.subarray(2, 2 + received.readUInt16BE(0));
      if (answer.length < 12 || answer.readUInt16BE(0) !== message.readUInt16BE(0))
        fail('the answer is not to this message');
      else resolve(answer);
    });
    socket.write(Buffer.concat([Buffer.of(message.length >> 8, message.length & 0xff), message]));
  });
}
