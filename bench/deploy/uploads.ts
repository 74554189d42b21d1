import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const WHARF_CLI = fileURLToPath(new URL('../../packages/cli/bin/wharf.js', import.meta.url));

export interface Target {
  /** Where uploads go: the counting proxy in front of the server. */
  url: string;
  siteId: string;
  token: string;
}

/** Runs a command to its end; its wall-clock time is what a user waits. */
function run(command: string, args: string[]) {
  const startedAt = performance.now();
  return new Promise<{ stdout: string; seconds: number }>((resolve, reject) => {
    const child = spawn(command, args, { env: { PATH: process.env.PATH, HOME: process.env.HOME } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = (performance.now() - startedAt) / 1000;
      if (code === 0) resolve({ stdout, seconds });
      else reject(new Error(`${command} ${args.slice(0, 2).join(' ')}… exited with ${code}: ${stderr || stdout}`));
    });
  });
}

export interface CliDeploy {
  seconds: number;
  /** What the CLI reports sending: the manifest and the files the server lacked. */
  sentBytes: number;
  uploadedFiles: number;
  uploadedBytes: number;
}

/**
 * `wharf upload` as a CI job runs it: a new process, node started through the bin script; with
 * `niceness`, at that scheduling priority (`nice -n`), for clients that stand for other machines.
 */
export async function deployWithCli(folder: string, target: Target, release: string, niceness = 0): Promise<CliDeploy> {
  const args = ['upload', folder, '--url', target.url, '--site', target.siteId, '--token', target.token];
  const { stdout, seconds } = await run(niceness ? 'nice' : process.execPath, [
    ...(niceness ? ['-n', String(niceness), process.execPath] : []),
    WHARF_CLI,
    ...args,
    '--release',
    release,
    '--branch',
    'main',
    '--json',
  ]);
  const result = JSON.parse(stdout) as { sentBytes: number; uploaded: { files: number; bytes: number } };
  return {
    seconds,
    sentBytes: result.sentBytes,
    uploadedFiles: result.uploaded.files,
    uploadedBytes: result.uploaded.bytes,
  };
}

export interface ArchiveDeploy {
  seconds: number;
  tarSeconds: number;
  curlSeconds: number;
  archiveBytes: number;
}

/** The upload of spec.md by hand: `curl -F` of an archive, to the releases endpoint. */
export async function uploadArchiveWithCurl(archive: string, target: Target, release: string) {
  const { stdout, seconds } = await run('curl', [
    '--silent',
    '--show-error',
    '--output',
    '/dev/null',
    '--write-out',
    '%{http_code}',
    '--header',
    `Authorization: Bearer ${target.token}`,
    '--form',
    `name=${release}`,
    '--form',
    'branches=main',
    '--form',
    `file=@${archive};type=application/gzip`,
    `${target.url}/api/v1/sites/${target.siteId}/releases`,
  ]);
  if (stdout !== '200') throw new Error(`curl upload answered ${stdout}`);
  return seconds;
}

/** The baseline: `tar czf` of the folder, then `curl -F` of the archive. */
export async function deployWithTarAndCurl(
  folder: string,
  archive: string,
  target: Target,
  release: string,
): Promise<ArchiveDeploy> {
  const tar = await run('tar', ['czf', archive, '-C', folder, '.']);
  const curlSeconds = await uploadArchiveWithCurl(archive, target, release);
  return {
    seconds: tar.seconds + curlSeconds,
    tarSeconds: tar.seconds,
    curlSeconds,
    archiveBytes: (await stat(archive)).size,
  };
}
