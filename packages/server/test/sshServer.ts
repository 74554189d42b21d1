import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { freePort } from './harness.ts';

const SSHD = '/usr/sbin/sshd';

/** Whether OpenSSH's server is installed here (Debian's openssh-server, which .ci/run installs without starting it). */
export const hasSshd = () => existsSync(SSHD);

export interface SshServer {
  port: number;
  user: string;
  /** Lets this public key in (a deploy key added at the forge). */
  authorize(publicKey: string): Promise<void>;
  /** Starts again on the same port with a new host key: a forge that changed its key, or someone posing as it. */
  changeHostKey(): Promise<void>;
  close(): Promise<void>;
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** Starts sshd in the foreground with this configuration, once it accepts connections. */
async function startSshd(config: string, port: number): Promise<ChildProcess> {
  const child = spawn(SSHD, ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'inherit'] });
  for (let tries = 0; !(await accepts(port)); tries++) {
    if (child.exitCode !== null || tries > 100) throw new Error(`sshd did not start (exit ${child.exitCode})`);
    await sleep(50);
  }
  return child;
}

/**
 * OpenSSH's own server on a loopback port of its own, for this user, with keys from one file: how a
 * forge serves git over SSH (git runs `git-upload-pack` through it). Nothing of the machine's own
 * ssh settings is read.
 */
export async function startSshServer(): Promise<SshServer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'wharf-sshd-'));
  const port = await freePort();
  const user = os.userInfo().username;
  const authorizedKeys = path.join(dir, 'authorized_keys');
  const hostKey = path.join(dir, 'host_key');
  await promisify(execFile)('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', hostKey]);
  await writeFile(authorizedKeys, '');
  const config = path.join(dir, 'sshd_config');
  await writeFile(
    config,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${hostKey}`,
      `PidFile ${path.join(dir, 'sshd.pid')}`,
      `AuthorizedKeysFile ${authorizedKeys}`,
      'StrictModes no',
      'UsePAM no',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PubkeyAuthentication yes',
      'PermitRootLogin prohibit-password',
      `AllowUsers ${user}`,
      'LogLevel ERROR',
      '',
    ].join('\n'),
  );
  // The privilege separation directory sshd wants when it starts as root.
  if (process.getuid?.() === 0) await mkdir('/run/sshd', { recursive: true, mode: 0o755 });
  let child = await startSshd(config, port);
  return {
    port,
    user,
    async authorize(publicKey) {
      await writeFile(authorizedKeys, `${publicKey}\n`);
    },
    async changeHostKey() {
      child.kill('SIGTERM');
      await once(child, 'exit');
      await rm(hostKey, { force: true });
      await rm(`${hostKey}.pub`, { force: true });
      await promisify(execFile)('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', hostKey]);
      child = await startSshd(config, port);
    },
    async close() {
      child.kill('SIGTERM');
      await rm(dir, { recursive: true, force: true });
    },
  };
}
