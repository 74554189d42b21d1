import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

/** s3rver's fixed credentials: the AWS SDK signs with them as with any others. */
const CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' };

export interface S3Peer {
  endpoint: string;
  bucket: string;
  /** What a Wharf process needs in its environment to keep its blobs here, under `prefix`. */
  env(prefix: string): Record<string, string>;
  /** The keys of the bucket under a prefix, as the store lists them. */
  keys(prefix: string): Promise<string[]>;
  close(): Promise<void>;
}

/**
 * An S3-compatible server on loopback (s3rver, from npm) with one bucket, spoken to through the
 * real AWS SDK. Its credentials are also put in this process's environment, where the SDK of a
 * Wharf running in this process reads them.
 */
export async function startS3Peer(bucket = 'wharf-test'): Promise<S3Peer> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'wharf-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory });
  const { port } = await server.run();
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
    async close() {
      client.destroy();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
