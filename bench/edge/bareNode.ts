import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BenchCertificate, TLS_HOST } from './certificate.ts';
import { type Answer, freePort, request } from './http.ts';

/** A request of the bench: its path and the headers that choose the answer (Accept-Encoding). */
export interface BenchRequest {
  path: string;
  headers: Record<string, string>;
}

/** Headers of the connection, not of the answer: node:http writes its own. */
const PER_CONNECTION = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

const SERVER = fileURLToPath(new URL('./bareNodeServer.mjs', import.meta.url));

export const answerKey = (path: string, headers: Record<string, string>) =>
  `${path}\n${headers['Accept-Encoding'] ?? ''}`;

/** The headers of an answer that say something about the file (what must match between servers). */
export function fileHeaders(answer: Answer) {
  return Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !PER_CONNECTION.has(name)));
}

/**
 * The upper bound of a Node edge on this machine: a node:http cluster of `workers` processes
 * (0: one process) answering each request of the bench with the status, headers and bytes the
 * running Wharf answered it once, from memory, by path and Accept-Encoding. With `tls`, it serves
 * node:https with that certificate, and `wharfPort` is Wharf's HTTPS port (whose answers carry HSTS).
 */
export async function startBareNode(
  dir: string,
  workers: number,
  wharfPort: number,
  host: string,
  requests: BenchRequest[],
  nodeArgs: string[] = [],
  tls?: BenchCertificate,
): Promise<{ child: ChildProcess; port: number }> {
  const answers = [];
  for (const r of requests) {
    const answer = await request(wharfPort, host, r.path, r.headers, tls ? { servername: TLS_HOST } : undefined);
    answers.push({
      key: answerKey(r.path, r.headers),
      status: answer.status,
      headers: fileHeaders(answer),
      body: answer.body.toString('base64'),
    });
  }
  const file = path.join(dir, `bare-node-answers${tls ? '-tls' : ''}.json`);
  await writeFile(file, JSON.stringify(answers));
  const port = await freePort();
  const tlsArgs = tls ? [tls.certFile, tls.keyFile, randomBytes(48).toString('hex')] : [];
  const child = spawn(process.execPath, [...nodeArgs, SERVER, file, String(port), String(workers), ...tlsArgs], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // It prints 'ready' once every worker listens.
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString('utf8').includes('ready')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`The bare Node server exited with ${code} before it was ready`)));
  });
  return { child, port };
}
