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
import type { S3Location } from '../config/types.ts';
import { inParallel } from '../lib/inParallel.ts';
import { Outage, type OutageLogger } from '../lib/outage.ts';
import { trustedRoots } from '../outbound/outsideServices.ts';
import {
  type BlobStore,
  type BlobToCommit,
  mustBeBlobKey,
  type StagedBlob,
  type StagingFile,
  type StoredKey,
} from './blobStore.ts';
import { boundStoreSilence } from './silentStore.ts';
import { LocalStaging } from './staging.ts';
import { asStoreError, StoreUnavailable, storeFailureOf } from './storeFailure.ts';

/**
 * Tries of one call (the AWS SDK's standard retry: a timeout, a cut connection or a 5xx is tried
 * again after a short back-off). Two keep a visitor's wait for an unanswering store near two
 * timeouts; AWS_MAX_ATTEMPTS, read by the SDK, changes it.
 */
const ATTEMPTS = 2;

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
    ...(process.env.AWS_MAX_ATTEMPTS ? {} : { maxAttempts: ATTEMPTS }),
    // Without them a store that stops answering holds every call (and the visitor behind it) for
    // good. The connection's timeout counts a wait for a free socket too, and a large file streams
    // to its visitor on one socket for the whole download: no cap of the SDK's (50) then makes a
    // download wait behind others, or time out queued. Wharf bounds its own uploads and sweeps.
    requestHandler: {
      connectionTimeout: location.timeoutMs,
      socketTimeout: location.timeoutMs,
      httpAgent: { maxSockets: Number.POSITIVE_INFINITY },
      httpsAgent: { maxSockets: Number.POSITIVE_INFINITY, keepAlive: true, ...(ca ? { ca } : {}) },
    },
    // Stores other than AWS may not take the checksums the SDK adds to every request by default.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** How long after a store stopped answering (or after the last question) it is asked again. */
const ASK_AGAIN_MS = 1_000;

/** Files larger than this go in parts, several at a time. */
const PART_BYTES = 8 * 1024 * 1024;
const PARTS_IN_FLIGHT = 4;
const UPLOADS_IN_FLIGHT = 16;

type Source = { file: string } | { bytes: Buffer };

const absentAsNull = (error: unknown) => {
  // Absent is an answer; a store that cannot be reached is a failure the caller reports.
  if (storeFailureOf(error) === 'absent') return null;
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
  private readonly client: S3Client;
  private readonly outage: Outage;
  /** The next question to a store that stopped answering, while one is due. */
  private asking: NodeJS.Timeout | undefined;

  constructor(
    private readonly location: S3Location,
    stagingDir: string,
    log: OutageLogger,
    client?: S3Client,
  ) {
    this.staging = new LocalStaging(stagingDir);
    this.outage = new Outage(
      log,
      'The blob store',
      'files not in memory and uploads answer 503 at once until it answers again (asked every second)',
    );
    this.client = client ?? s3ClientFor(location, []);
  }

  /**
   * Every call to the bucket goes through here: an answer (a missing key too) ends an outage, a
   * store that did not answer starts one (logged once) and fails the call with StoreUnavailable.
   * While an outage lasts, calls fail at once: each would otherwise wait its own two timeouts (an
   * upload's commits, then the removal of what it brought; every visitor's uncached file), and one
   * question a second (`askUntilBack`) finds out when the store answers again.
   */
  private async call<T>(work: () => Promise<T>): Promise<T> {
    if (this.outage.away) throw new StoreUnavailable(new Error(this.outage.reason ?? 'the store does not answer'));
    try {
      const answer = await work();
      this.outage.answered();
      return answer;
    } catch (error) {
      throw this.failure(error);
    }
  }

  private failure(error: unknown) {
    const kind = storeFailureOf(error);
    if (kind === 'absent') this.outage.answered();
    if (kind === 'unavailable') {
      this.outage.failed(error);
      this.askUntilBack();
    }
    return asStoreError(error);
  }

  /** Asks the bucket whether it answers, a second after each question, until it does (any answer). */
  private askUntilBack() {
    if (this.asking) return;
    this.asking = setTimeout(async () => {
      try {
        // One question with a call's own timeout, not its two tries. Not shorter: a store that
        // answers slowly (a loaded machine) but within the timeout serves calls, and a question
        // given up sooner would keep this process's outage going while the store works (ci25).
        await this.client.send(new HeadBucketCommand({ Bucket: this.location.bucket }), {
          abortSignal: AbortSignal.timeout(this.location.timeoutMs),
        });
        this.outage.answered();
      } catch (error) {
        const unanswered = (error as Error).name === 'AbortError' || storeFailureOf(error) === 'unavailable';
        if (unanswered) this.outage.failed(error);
        else this.outage.answered();
      }
      this.asking = undefined;
      if (this.outage.away) this.askUntilBack();
    }, ASK_AGAIN_MS);
    this.asking.unref();
  }

  /**
   * An object's bytes as they arrive: a store that stops sending them midway (silent for the
   * timeout while they are wanted) is an outage too, and the body fails with StoreUnavailable.
   */
  private body(answer: { Body?: unknown } | null): Readable | null {
    const body = (answer?.Body as Readable | undefined) ?? null;
    if (!body) return null;
    boundStoreSilence(
      body,
      this.location.timeoutMs,
      (silentMs) => new StoreUnavailable(new Error(`the store sent nothing for ${Math.round(silentMs)} ms midway`)),
    );
    body.once('error', (error) => this.failure(error));
    return body;
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
      await this.call(() => this.client.send(new PutObjectCommand({ ...this.object(key), Body: source.bytes })));
      return;
    }
    const body = createReadStream(source.file);
    try {
      await this.call(() =>
        new Upload({
          client: this.client,
          params: { ...this.object(key), Body: body },
          partSize: PART_BYTES,
          queueSize: PARTS_IN_FLIGHT,
        }).done(),
      );
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
    const range = `bytes=${start}-${end}`;
    const answer = await this.call(() =>
      this.client.send(new GetObjectCommand({ ...this.object(key), Range: range })),
    ).catch(absentAsNull);
    return this.body(answer);
  }

  async readAll(key: string) {
    return this.call(async () => {
      const answer = await this.client.send(new GetObjectCommand(this.object(key)));
      return answer.Body ? Buffer.from(await answer.Body.transformToByteArray()) : null;
    }).catch(absentAsNull);
  }

  async read(key: string) {
    const answer = await this.call(() => this.client.send(new GetObjectCommand(this.object(key)))).catch(absentAsNull);
    return this.body(answer);
  }

  async size(key: string) {
    const head = await this.call(() => this.client.send(new HeadObjectCommand(this.object(key)))).catch(absentAsNull);
    return head ? Number(head.ContentLength ?? 0) : null;
  }

  async remove(key: string) {
    await this.call(() => this.client.send(new DeleteObjectCommand(this.object(key))));
  }

  async *list(folder: string): AsyncIterable<StoredKey> {
    if (folder !== '' && !folder.endsWith('/')) throw new Error(`A folder of keys ends with /: ${folder}`);
    const base = this.location.prefix ? `${this.location.prefix}/` : '';
    let token: string | undefined;
    do {
      const page = await this.call(() =>
        this.client.send(
          new ListObjectsV2Command({ Bucket: this.location.bucket, Prefix: base + folder, ContinuationToken: token }),
        ),
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
    await this.call(() => this.client.send(new HeadBucketCommand({ Bucket: this.location.bucket })));
  }
}
