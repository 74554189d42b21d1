import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './harness.ts';

export interface RedisPeer {
  url: string;
  /** Stops the server's process (SIGSTOP): connections stay open and nothing answers, as a Redis that hangs. */
  pause(): void;
  resume(): void;
  /** Kills the server: connections are refused until `start`. */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty (as a Redis restarted without persistence). */
  start(): Promise<void>;
  close(): Promise<void>;
}

/** Whether something answers on the port. */
const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/**
 * A `redis-server` of the test's own on a free port of loopback, without persistence: a fault
 * injected into it (a pause, a kill) touches no other test and not the machine's Redis.
 */
export async function startRedisPeer(): Promise<RedisPeer> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const killOnExit = () => child?.kill('SIGKILL');
  process.once('exit', killOnExit);

  async function start() {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    for (let attempt = 0; attempt < 100; attempt++) {
      if (await listening(port)) return;
      if (child.exitCode !== null) throw new Error(`redis-server exited (${child.exitCode})`);
      await sleep(50);
    }
    throw new Error('redis-server did not listen within 5 s');
  }

  async function stop() {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  }

  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    pause: () => child?.kill('SIGSTOP'),
    resume: () => child?.kill('SIGCONT'),
    stop,
    start,
    async close() {
      await stop();
      process.off('exit', killOnExit);
    },
  };
}
