import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';

/** s3rver's fixed credentials (fauxqs takes any): the AWS SDK signs with them as with any others. */
const CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' };

/** The S3-compatible servers from npm the S3 code is checked against: two implementations, not one. */
export const s3ServerKinds = ['s3rver', 'fauxqs'] as const;
export type S3ServerKind = (typeof s3ServerKinds)[number];

export interface S3Peer {
  kind: S3ServerKind;
  endpoint: string;
  bucket: string;
  /** What a Wharf process needs in its environment to keep its blobs here, under `prefix`. */
  env(prefix: string): Record<string, string>;
  /** The keys of the bucket under a prefix, as the store lists them. */
  keys(prefix: string): Promise<string[]>;
  /** Stops the server's process (SIGSTOP): its connections stay open and nothing answers, as a store that hangs. */
  pause(): void;
  resume(): void;
  close(): Promise<void>;
}

const SERVER_SCRIPT = path.join(import.meta.dirname, 's3Server.mjs');

/** Starts the server in a child process (see s3Server.mjs) and answers its port once it listens. */
async function startServer(kind: S3ServerKind, directory: string): Promise<{ child: ChildProcess; port: number }> {
  // s3rver pages its listings with DES-encrypted tokens, which need OpenSSL's legacy provider.
  const flags = kind === 's3rver' ? ['--openssl-legacy-provider'] : [];
  const child = spawn(process.execPath, [...flags, SERVER_SCRIPT, kind, directory], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  const lines = createInterface({ input: child.stdout! });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${kind} exited (${code}): ${stderr}`)));
  });
  lines.close();
  return { child, port: (JSON.parse(first) as { port: number }).port };
}

/**
 * An S3-compatible server on loopback (s3rver or fauxqs, from npm) with one bucket, in a process
 * of its own, spoken to through the real AWS SDK. Its credentials are also put in this process's
 * environment, where the SDK of a Wharf running in this process reads them.
 */
export async function startS3Peer(kind: S3ServerKind = 's3rver', bucket = 'wharf-test'): Promise<S3Peer> {
  const directory = await mkdtemp(path.join(os.tmpdir(), `wharf-${kind}-`));
  const { child, port } = await startServer(kind, directory);
  const endpoint = `http://127.0.0.1:${port}`;
  Object.assign(process.env, CREDENTIALS);
  const client = new S3Client({
    endpoint,
    forcePathStyle: true,
    region: CREDENTIALS.AWS_REGION,
    credentials: { accessKeyId: CREDENTIALS.AWS_ACCESS_KEY_ID, secretAccessKey: CREDENTIALS.AWS_SECRET_ACCESS_KEY },
  });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  return {
    kind,
    endpoint,
    bucket,
    env: (prefix) => ({ ...CREDENTIALS, WHARF_STORAGE: `s3://${bucket}/${prefix}`, WHARF_S3_ENDPOINT: endpoint }),
    async keys(prefix) {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: `${prefix}/`, ContinuationToken: token }),
        );
        for (const object of page.Contents ?? []) keys.push(object.Key!.slice(prefix.length + 1));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return keys.sort();
    },
    pause: () => child.kill('SIGSTOP'),
    resume: () => child.kill('SIGCONT'),
    async close() {
      client.destroy();
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
      }
      await rm(directory, { recursive: true, force: true });
    },
  };
}
