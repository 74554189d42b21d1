import { createHash } from 'node:crypto';
import { type Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  branchExpiry,
  type ReleaseSource,
  type ReleaseUploader,
  name as releaseName,
  releaseSource,
} from '@wharf/contract';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ReleaseLimits } from '../../../config/types.ts';
import type { Database } from '../../../db/schema.ts';
import { httpError, invalidField } from '../../../http/errors.ts';
import { readParts } from '../../../http/multipart.ts';
import { mustBeGoodText } from '../../../http/textRule.ts';
import { validationError } from '../../../http/validation.ts';
import { createRelease } from '../create/createRelease.ts';
import { formsOfRelease } from '../create/formsOfRelease.ts';
import { rulesOfRelease } from '../create/rulesOfRelease.ts';
import { recordFailedDeploy } from '../failedDeploys.ts';
import type { ReleaseParts } from '../parts.ts';
import { byteLimit, receiveArchive } from './archive.ts';
import { dropDeploy, openDeploy } from './deployRows.ts';

/** `force` and `draft` of a form: yes or no. */
const forceField = z.enum(['true', 'false'], { error: 'Must be true or false' });

/** The `source` field: the JSON of a ReleaseSource, held to the schema the deploy body uses. */
function sourceField(value: string): ReleaseSource {
  mustBeGoodText(value, 'source');
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw invalidField('source', 'Must be a JSON object (commit, message, branch, author, links)');
  }
  const result = releaseSource.safeParse(parsed);
  if (!result.success) throw validationError(result.error, 'source');
  return result.data;
}

function field(value: string, field: string, schema: z.ZodType<string> = releaseName) {
  mustBeGoodText(value, field);
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error, field);
  return result.data;
}

interface UploadReader<T> {
  field(name: string, value: string): void;
  archive(stream: Readable): Promise<T>;
}

/**
 * Reads the multipart body of an upload, part by part, handing each to `reader`; answers what the
 * archive became and the upload's fingerprint: its fields in order and the archive's sha256, what
 * tells a retry of this upload from another one sent with the same Idempotency-Key.
 */
async function readUpload<T>(request: FastifyRequest, limits: ReleaseLimits, reader: UploadReader<T>) {
  if (!request.isMultipart())
    throw httpError('MEDIA_TYPE_UNSUPPORTED', 'Send the release as multipart/form-data with a tar.gz field named file');
  const fingerprint = createHash('sha256');
  let archive: T | undefined;
  // One byte over the limit, so the archive's own counter reports the 413 before the parser truncates.
  for await (const part of readParts(request, {
    limits: { fileSize: limits.archiveBytes + 1, files: 1, fields: 40 },
  })) {
    if (part.type === 'file') {
      if (part.fieldname !== 'file')
        throw httpError('MULTIPART_INVALID', `Unexpected file field ${part.fieldname}; send the archive as file`);
      const archiveHash = createHash('sha256');
      part.file.on('data', (chunk: Buffer) => archiveHash.update(chunk));
      archive = await reader.archive(part.file);
      if (part.file.truncated) throw httpError('RELEASE_TOO_LARGE', 'The archive is larger than allowed');
      fingerprint.update(`${JSON.stringify(['file', archiveHash.digest('hex')])}\n`);
    } else {
      fingerprint.update(`${JSON.stringify([part.fieldname, String(part.value)])}\n`);
      reader.field(part.fieldname, String(part.value));
    }
  }
  return { archive, fingerprint: fingerprint.digest('hex') };
}

/**
 * The upload of spec.md: multipart with a tar.gz `file`, a release `name` and `branches` (the
 * field repeated once per branch), and Wharf's `expires` (the branches' expiry, `14d`) and
 * `force` (`true`: a release even when nothing changed). The archive streams into the blob store; no branch moves
 * unless every file arrived. Answers the release and the upload's fingerprint.
 */
export async function uploadArchive(
  parts: ReleaseParts,
  request: FastifyRequest,
  site: Database['sites'],
  { actorId, uploader }: { actorId: string | null; uploader: ReleaseUploader | null },
) {
  const limits = parts.config.limits;
  const deploy = await openDeploy(parts.db, parts.config.deployTtlMs, {
    siteId: site.id,
    name: '',
    branches: [],
    actorId,
    origin: { uploader, source: {} },
  });
  let name: string | undefined;
  let source: ReleaseSource = {};
  const branches: string[] = [];
  try {
    let expires: string | null = null;
    let force = false;
    let draft = false;
    const upload = await readUpload(request, limits, {
      field(fieldName, value) {
        if (fieldName === 'name') name = field(value, 'name');
        else if (fieldName === 'branches' || fieldName === 'branches[]') branches.push(field(value, 'branches'));
        else if (fieldName === 'expires') expires = field(value, 'expires', branchExpiry);
        else if (fieldName === 'force') force = field(value, 'force', forceField) === 'true';
        else if (fieldName === 'draft') draft = field(value, 'draft', forceField) === 'true';
        else if (fieldName === 'source') source = sourceField(value);
      },
      archive: (stream) => receiveArchive(parts, { id: deploy.id, orgId: site.org_id }, stream, limits),
    });
    const files = upload.archive;
    if (!files) throw invalidField('file', 'Input is required');
    if (!name) throw invalidField('name', 'Input is required');
    if (draft && branches.length > 0)
      throw invalidField('branches', 'A draft goes to no branch; publish it to one later');
    if (draft && expires) throw invalidField('expires', 'A draft has no branches to expire');
    const release = await createRelease(parts.db, parts.config, {
      site,
      name,
      branches,
      branchExpiry: expires,
      forms: await formsOfRelease(parts, files, files),
      rules: await rulesOfRelease(parts, files),
      actorId,
      deployId: deploy.id,
      force,
      draft,
      origin: { uploader, source },
      startedAt: deploy.created_at,
    });
    parts.deployMetrics.succeeded();
    void parts.jobs.wake();
    return { release, fingerprint: upload.fingerprint };
  } catch (error) {
    const attempt = { siteId: site.id, name: name ?? '', branches, origin: { uploader, source } };
    const log = [`${deploy.created_at} started: an upload of a tar.gz`];
    await recordFailedDeploy(parts.db, parts.log, { ...attempt, startedAt: deploy.created_at, log }, error);
    // Nothing of a failed upload stays: no release, and none of the files it brought.
    await dropDeploy(parts, deploy.id).catch((failure) =>
      parts.log.error({ err: failure, deployId: deploy.id }, 'could not drop a failed upload'),
    );
    throw error;
  }
}

/** The fingerprint of an upload, read without storing anything: a retry whose answer is already known. */
export async function fingerprintOfUpload(request: FastifyRequest, limits: ReleaseLimits) {
  const discard = () => new Writable({ write: (_chunk, _encoding, done) => done() });
  const upload = await readUpload(request, limits, {
    field() {},
    archive: (stream) =>
      pipeline(stream, byteLimit(limits.archiveBytes, 'The archive is larger than allowed'), discard()),
  });
  return upload.fingerprint;
}
