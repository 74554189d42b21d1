import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import http, { type IncomingMessage } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundStoreSilence } from './silentStore.ts';

/** A store that sends a body slowly and steadily, from a process of its own: it goes on while this one is held up. */
const TRICKLE = `
  const server = require('node:http').createServer((request, response) => {
    response.writeHead(200);
    const tick = setInterval(() => response.write('x'.repeat(512)), 20);
    response.on('close', () => clearInterval(tick));
  });
  server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

const IDLE_MS = 500;

describe('the bound on a store that falls silent midway', () => {
  let store: ChildProcess;
  let port: number;

  beforeAll(async () => {
    store = spawn(process.execPath, ['-e', TRICKLE], { stdio: ['ignore', 'pipe', 'inherit'] });
    const [line] = (await once(store.stdout!, 'data')) as [Buffer];
    port = Number(line.toString().trim());
  });
  afterAll(() => {
    store.kill('SIGCONT');
    store.kill();
  });

  const trickle = async () => {
    const request = http.get(`http://127.0.0.1:${port}/`);
    const failures: Error[] = [];
    // A body cut with an error fails its request too: that is the same failure, counted once.
    request.on('error', () => undefined);
    const [body] = (await once(request, 'response')) as [IncomingMessage];
    boundStoreSilence(body, IDLE_MS, (silentMs) => new Error(`silent for ${silentMs} ms`));
    body.on('error', (error) => failures.push(error));
    body.resume();
    return { body, failures };
  };

  it('does not take this process being held up for the store falling silent', async () => {
    const { body, failures } = await trickle();
    await sleep(100);
    // Three times the bound, as a CPU-bound task or a long collection would, after the loop has
    // read its sockets (the watch's timer is due first when the loop turns again): the store's
    // bytes wait on the socket meanwhile, and are read before any verdict.
    setImmediate(() => {
      const until = performance.now() + 3 * IDLE_MS;
      while (performance.now() < until) {
        // Busy on purpose.
      }
    });
    await sleep(2 * IDLE_MS);
    expect(failures).toEqual([]);
    body.destroy();
  });

  it('cuts the body once the store has sent nothing for the bound', async () => {
    const { body, failures } = await trickle();
    await sleep(100);
    store.kill('SIGSTOP');
    try {
      const cutAt = performance.now();
      await new Promise((closed) => body.once('close', closed));
      expect(failures).toEqual([expect.objectContaining({ message: expect.stringMatching(/^silent for \d+/) })]);
      expect(performance.now() - cutAt).toBeLessThan(10 * IDLE_MS);
    } finally {
      store.kill('SIGCONT');
    }
  });
});
