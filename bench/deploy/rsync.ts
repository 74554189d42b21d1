import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';

/** A free port on loopback, for the daemon. */
async function freePort() {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitForPort(port: number) {
  for (let tries = 0; tries < 100; tries++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => resolve(true));
      socket.on('error', () => resolve(false));
      socket.on('connect', () => socket.destroy());
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`rsync's daemon did not listen on ${port}`);
}

/**
 * The baseline of a deploy: an rsync daemon on loopback with a writable module, as one would
 * serve a site's folder with rsync and a web server. `rsync` from Debian's package.
 */
export async function startRsyncDaemon(work: string) {
  const root = path.join(work, 'rsync-module');
  await mkdir(root, { recursive: true });
  const config = path.join(work, 'rsyncd.conf');
  // The daemon writes as the user running the bench (as root it would otherwise switch to nobody).
  const owner = `uid = ${process.getuid?.() ?? 0}\ngid = ${process.getgid?.() ?? 0}\n`;
  await writeFile(config, `use chroot = no\n${owner}[site]\n  path = ${root}\n  read only = no\n`);
  const port = await freePort();
  const daemon = spawn(
    'rsync',
    ['--daemon', '--no-detach', `--config=${config}`, `--port=${port}`, '--address=127.0.0.1'],
    {
      stdio: 'ignore',
    },
  );
  await waitForPort(port);
  return {
    url: `rsync://127.0.0.1:${port}/site`,
    close: () => {
      daemon.kill();
    },
  };
}

export interface RsyncRun {
  seconds: number;
  /** Bytes both ways, from rsync's own count: `Total bytes sent` and `Total bytes received`. */
  wire: number;
}

/**
 * `rsync -a --fsync` of a folder into the daemon's `destination` (`-z` compresses on the wire),
 * timed end to end: what a user waits for. `--fsync` makes the receiver flush each file, as Wharf
 * does before it answers.
 */
export async function rsyncTo(url: string, folder: string, destination: string, compress: boolean): Promise<RsyncRun> {
  const args = ['-a', '--fsync', '--stats', ...(compress ? ['-z'] : []), `${folder}/`, `${url}/${destination}/`];
  const startedAt = performance.now();
  const stdout = await new Promise<string>((resolve, reject) => {
    const child = spawn('rsync', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let errors = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`rsync exited with ${code}: ${errors}`)),
    );
  });
  const seconds = (performance.now() - startedAt) / 1000;
  const total = (label: string) =>
    Number(stdout.match(new RegExp(`${label}: ([\\d,.]+)`))?.[1]?.replace(/[,.]/g, '') ?? NaN);
  return { seconds, wire: total('Total bytes sent') + total('Total bytes received') };
}
