// The limit of any Node edge: node:http in a cluster answering recorded bytes from memory.
// Plain JavaScript on plain Node, as Wharf runs bundled.
// Usage: node bareNodeServer.mjs ANSWERS.json PORT WORKERS [CERT.pem KEY.pem TICKET_KEYS_HEX] (the last three: node:https)
import cluster from 'node:cluster';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';

const [answersFile, port, workers, certFile, keyFile, ticketKeys] = process.argv.slice(2);

if (cluster.isPrimary && Number(workers) > 0) {
  // Same as Wharf's pool (cluster.ts): the workers take connections from the port themselves, as
  // the kernel hands them out, rather than from the primary (node:cluster's default on Linux).
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  for (let i = 0; i < Number(workers); i++) cluster.fork();
  let listening = 0;
  cluster.on('listening', () => {
    if (++listening === Number(workers)) console.log('ready');
  });
  let stopping = false;
  cluster.on('exit', (_worker, code) => {
    if (!stopping) process.exit(code ?? 1);
    // Each worker has written its profile (node --cpu-prof) when the last one is gone.
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
  });
  process.on('SIGTERM', () => {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
  });
} else {
  /** `${path}\n${accept-encoding}` → the answer Wharf gave to that request, read once at start. */
  const answers = new Map();
  for (const answer of JSON.parse(readFileSync(answersFile, 'utf8'))) {
    answers.set(answer.key, {
      status: answer.status,
      headers: answer.headers,
      body: Buffer.from(answer.body, 'base64'),
    });
  }
  const listener = (req, res) => {
    const answer = answers.get(`${req.url}\n${req.headers['accept-encoding'] ?? ''}`);
    if (!answer) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  };
  // Over TLS as Wharf's listener is set up: TLS 1.2 at least, ticket keys shared by the workers.
  const server = certFile
    ? https.createServer(
        {
          cert: readFileSync(certFile),
          key: readFileSync(keyFile),
          minVersion: 'TLSv1.2',
          ticketKeys: Buffer.from(ticketKeys, 'hex'),
        },
        listener,
      )
    : http.createServer(listener);
  server.listen(Number(port), '127.0.0.1', () => {
    if (cluster.isPrimary) console.log('ready');
  });
  process.on('SIGTERM', () => process.exit(0));
}
