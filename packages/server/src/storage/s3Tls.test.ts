import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { pino } from 'pino';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAuthority } from '../../test/certificates.ts';
import type { S3Location } from '../config/types.ts';
import { S3BlobStore, s3ClientFor } from './s3BlobStore.ts';

const CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' };

describe("a bucket served over HTTPS with a certificate of the operator's own CA", () => {
  let dir: string;
  let server: S3rver;
  let ca: string;
  let location: S3Location;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'wharf-s3-tls-'));
    const authority = testAuthority();
    ca = authority.ca;
    const { cert, key } = authority.issue(['127.0.0.1']);
    authority.remove();
    server = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory: path.join(dir, 'bucket'),
      cert,
      key,
    });
    const { port } = await server.run();
    Object.assign(process.env, CREDENTIALS);
    location = {
      bucket: 'private-ca',
      prefix: 'files',
      endpoint: new URL(`https://127.0.0.1:${port}`),
      timeoutMs: 3_000,
    };
    await s3ClientFor(location, [ca]).send(new CreateBucketCommand({ Bucket: location.bucket }));
  });
  afterAll(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const log = pino({ level: 'silent' });
  const storeTrusting = (roots: string[]) =>
    new S3BlobStore(location, path.join(dir, `staging-${roots.length}`), log, s3ClientFor(location, roots));

  it('is refused with the TLS cause unless WHARF_EXTRA_CA_CERTS names the CA', async () => {
    const key = `files/${'ab'.repeat(32)}`;
    await expect(storeTrusting([]).size(key)).rejects.toThrow(/unable to verify the first certificate/);
    const trusting = storeTrusting([ca]);
    await trusting.put(key, Buffer.from('kept'));
    expect(await trusting.size(key)).toBe(4);
  });
});
