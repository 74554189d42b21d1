// One S3-compatible server from npm on loopback, in a process of its own so a test can pause it
// (SIGSTOP) as a store that hangs, or kill it. Prints `{"port":N}` once it listens.
//   node --openssl-legacy-provider s3Server.mjs s3rver <directory>
//   node s3Server.mjs fauxqs
// s3rver's continuation tokens are DES-encrypted, which OpenSSL 3 (Node 17 on) refuses without
// the legacy provider: without it, a listing stops at its first page of 1,000 keys.
const [kind, directory] = process.argv.slice(2);

async function listen() {
  if (kind === 's3rver') {
    const { default: S3rver } = await import('s3rver');
    const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory });
    return (await server.run()).port;
  }
  if (kind === 'fauxqs') {
    const { buildApp } = await import('fauxqs');
    const app = buildApp({ logger: false });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    return Number(new URL(address).port);
  }
  throw new Error(`No S3 server named ${kind}`);
}

process.stdout.write(`${JSON.stringify({ port: await listen() })}\n`);
