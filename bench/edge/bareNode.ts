import { type ChildProcess, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
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
 * running Wharf answered it once, from memory, by path and Accept-Encoding.
 */
export async function startBareNode(
  dir: string,
  workers: number,
  wharfPort: number,
  host: string,
  requests: BenchRequest[],
  nodeArgs: string[] = [],
): Promise<{ child: ChildProcess; port: number }> {
  const answers = [];
  for (const r of requests) {
    const answer = await request(wharfPort, host, r.path, r.headers);
    answers.push({
      key: answerKey(r.path, r.headers),
      status: answer.status,
      headers: fileHeaders(answer),
      body: answer.body.toString('base64'),
    });
  }
  const file = path.join(dir, 'bare-node-answers.json');
  await writeFile(file, JSON.stringify(answers));
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, SERVER, file, String(port), String(workers)], {
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
