import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Readable, type Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { inParallel } from '../lib/inParallel.ts';
import { trustedRoots } from '../outbound/outsideServices.ts';
import {
  type BlobStore,
  type BlobToCommit,
  mustBeBlobKey,
  type StagedBlob,
  type StagingFile,
  type StoredKey,
} from './blobStore.ts';
import { LocalStaging } from './staging.ts';

/** Where the blobs go: `WHARF_STORAGE=s3://bucket/prefix`, and `WHARF_S3_ENDPOINT` for stores other than AWS. */
export interface S3Location {
  bucket: string;
  /** Keys are stored under it (`prefix/files/ab/…`); '' for the bucket's root. */
  prefix: string;
  /** A store other than AWS (MinIO, Ceph, Garage…), addressed by path rather than by bucket host name. */
  endpoint: URL | null;
}

/**
 * The client of a bucket: at its endpoint (a store other than AWS), trusting `extraCaCerts`
 * (`WHARF_EXTRA_CA_CERTS`, a store behind a private CA) beside Node's roots.
 */
export function s3ClientFor(location: S3Location, extraCaCerts: readonly string[]): S3Client {
  const ca = trustedRoots(extraCaCerts);
  return new S3Client({
    ...(location.endpoint ? { endpoint: location.endpoint.href, forcePathStyle: true } : {}),
    // The SDK reads AWS_REGION; a store of one's own often has no region to name.
    ...(process.env.AWS_REGION ? {} : { region: 'us-east-1' }),
    // Stores other than AWS may not take the checksums the SDK adds to every request by default.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(ca ? { requestHandler: { httpsAgent: { ca, keepAlive: true } } } : {}),
  });
}

/** Files larger than this go in parts, several at a time. */
const PART_BYTES = 8 * 1024 * 1024;
const PARTS_IN_FLIGHT = 4;
const UPLOADS_IN_FLIGHT = 16;

type Source = { file: string } | { bytes: Buffer };

const isAbsent = (error: unknown) => {
  const failure = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return failure.name === 'NoSuchKey' || failure.name === 'NotFound' || failure.$metadata?.httpStatusCode === 404;
};

const absentAsNull = (error: unknown) => {
  // Absent is an answer; a store that cannot be reached is a failure the caller reports.
  if (isAbsent(error)) return null;
  throw error;
};

/** Content on its way to the bucket: a file of the local staging area, or bytes in memory. */
class StagedObject implements StagedBlob {
  readonly placed = false;

  constructor(
    readonly hash: string,
    readonly size: number,
    private readonly source: Source,
    private readonly store: S3BlobStore,
  ) {}

  read() {
    return 'file' in this.source ? createReadStream(this.source.file) : Readable.from([this.source.bytes]);
  }

  async commit(key: string) {
    await this.store.upload(key, this.source);
    await this.discard();
  }

  async discard() {
    if ('file' in this.source) await rm(this.source.file, { force: true });
  }
}

/**
 * Blobs as objects of an S3-compatible bucket, for installations of several nodes: every node
 * reads and writes the same store. A PUT is durable once it is answered. Content is staged on this
 * machine (files being received, variants being compressed) and uploaded when committed; large
 * files go in parts.
 */
export class S3BlobStore implements BlobStore {
  private readonly staging: LocalStaging;
  readonly client: S3Client;

  constructor(
    private readonly location: S3Location,
    stagingDir: string,
    client?: S3Client,
  ) {
    this.staging = new LocalStaging(stagingDir);
    this.client = client ?? s3ClientFor(location, []);
  }

  private objectKey(key: string) {
    mustBeBlobKey(key);
    return this.location.prefix ? `${this.location.prefix}/${key}` : key;
  }

  private object(key: string) {
    return { Bucket: this.location.bucket, Key: this.objectKey(key) };
  }

  /** Uploads content under a key: in one PUT, or in parts for a large file. */
  async upload(key: string, source: Source) {
    if ('bytes' in source) {
      await this.client.send(new PutObjectCommand({ ...this.object(key), Body: source.bytes }));
      return;
    }
    const body = createReadStream(source.file);
    try {
      await new Upload({
        client: this.client,
        params: { ...this.object(key), Body: body },
        partSize: PART_BYTES,
        queueSize: PARTS_IN_FLIGHT,
      }).done();
    } finally {
      body.destroy();
    }
  }

  async put(key: string, data: Buffer) {
    await this.upload(key, { bytes: data });
  }

  async stage(body: Readable, through?: Transform): Promise<StagedBlob> {
    const { file, hash, size } = await this.staging.stream(body, through);
    return new StagedObject(hash, size, { file }, this);
  }

  async stageBytes(bytes: Buffer, _keyOf: (hash: string) => string): Promise<StagedBlob> {
    const hash = createHash('sha256').update(bytes).digest('hex');
    return new StagedObject(hash, bytes.length, { bytes }, this);
  }

  async stagingFile(): Promise<StagingFile> {
    const file = await this.staging.newName();
    return {
      path: file,
      commit: async (key) => {
        await this.upload(key, { file });
        await rm(file, { force: true });
      },
      discard: () => rm(file, { force: true }),
    };
  }

  stagingArea() {
    return this.staging.area();
  }

  adopt(stagedPath: string, hash: string, size: number): StagedBlob {
    if (!this.staging.holds(stagedPath)) throw new Error(`${stagedPath} is not in the staging area`);
    return new StagedObject(hash, size, { file: stagedPath }, this);
  }

  async commitAll(blobs: BlobToCommit[]) {
    await inParallel(blobs, UPLOADS_IN_FLIGHT, ({ blob, key }) => blob.commit(key));
  }

  async localCopy(key: string) {
    const body = await this.read(key);
    if (!body) return null;
    const file = await this.staging.write((name) => pipeline(body, createWriteStream(name)));
    return { path: file, release: () => rm(file, { force: true }) };
  }

  async readRange(key: string, start: number, end: number) {
    const answer = await this.client
      .send(new GetObjectCommand({ ...this.object(key), Range: `bytes=${start}-${end}` }))
      .catch(absentAsNull);
    return (answer?.Body as Readable | undefined) ?? null;
  }

  async readAll(key: string) {
    const answer = await this.client.send(new GetObjectCommand(this.object(key))).catch(absentAsNull);
    if (!answer?.Body) return null;
    return Buffer.from(await answer.Body.transformToByteArray());
  }

  async read(key: string) {
    const answer = await this.client.send(new GetObjectCommand(this.object(key))).catch(absentAsNull);
    return (answer?.Body as Readable | undefined) ?? null;
  }

  async size(key: string) {
    const head = await this.client.send(new HeadObjectCommand(this.object(key))).catch(absentAsNull);
    return head ? Number(head.ContentLength ?? 0) : null;
  }

  async remove(key: string) {
    await this.client.send(new DeleteObjectCommand(this.object(key)));
  }

  async *list(folder: string): AsyncIterable<StoredKey> {
    if (folder !== '' && !folder.endsWith('/')) throw new Error(`A folder of keys ends with /: ${folder}`);
    const base = this.location.prefix ? `${this.location.prefix}/` : '';
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.location.bucket, Prefix: base + folder, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        if (!object.Key) continue;
        yield { key: object.Key.slice(base.length), modifiedAt: object.LastModified ?? new Date() };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  removeStaleStaging(maxAgeMs: number, at = new Date()) {
    return this.staging.removeStale(maxAgeMs, at);
  }

  async reachable() {
    await this.client.send(new HeadBucketCommand({ Bucket: this.location.bucket }));
  }
}
