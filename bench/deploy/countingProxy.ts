import net from 'node:net';

/**
 * A TCP relay on loopback that counts the bytes between clients and the server, both ways: what
 * an upload costs on the wire, HTTP headers and framing included, whoever the client is (wharf or
 * curl), as rsync counts what it sends and receives.
 */
export async function startCountingProxy(port: number) {
  let sent = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(port, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    }
    for (const socket of [client, upstream])
      socket.on('data', (chunk: Buffer) => {
        sent += chunk.length;
      });
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    /** Bytes sent either way since the last call. */
    takeSent() {
      const value = sent;
      sent = 0;
      return value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
