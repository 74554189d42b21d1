import { name as releaseName } from '@wharf/contract';
import type { FastifyRequest } from 'fastify';
import type { Database } from '../db/schema.ts';
import { badRequest, tooLarge, unsupportedMediaType } from '../http/errors.ts';
import { validationError } from '../http/validation.ts';
import type { WharfApp } from '../wharfApp.ts';
import { receiveArchive } from './archive.ts';
import { createRelease } from './createRelease.ts';
import { dropDeploy, openDeploy } from './deployRows.ts';
import { formsOfRelease } from './formsOfRelease.ts';

function field(value: string, field: string) {
  const result = releaseName.safeParse(value);
  if (!result.success) throw validationError(result.error, field);
  return result.data;
}

/**
 * The upload of spec.md: multipart with a tar.gz `file`, a release `name` and `branches` (the
 * field repeated once per branch). The archive streams into the blob store; no branch moves
 * unless every file arrived.
 */
export async function uploadArchive(
  app: WharfApp,
  request: FastifyRequest,
  site: Database['sites'],
  actorId: string | null,
) {
  if (!request.isMultipart())
    throw unsupportedMediaType('Send the release as multipart/form-data with a tar.gz field named file');
  const deploy = await openDeploy(app, { siteId: site.id, name: '', branches: [], actorId });
  try {
    let name: string | undefined;
    const branches: string[] = [];
    let files: Awaited<ReturnType<typeof receiveArchive>> | undefined;
    const limits = app.config.limits;
    // One byte over the limit, so the archive's own counter reports the 413 before the parser truncates.
    for await (const part of request.parts({ limits: { fileSize: limits.archiveBytes + 1, files: 1, fields: 40 } })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file')
          throw badRequest(`Unexpected file field ${part.fieldname}; send the archive as file`);
        files = await receiveArchive(app, deploy.id, part.file, limits);
        if (part.file.truncated) throw tooLarge('The archive is larger than allowed');
      } else if (part.fieldname === 'name') {
        name = field(String(part.value), 'name');
      } else if (part.fieldname === 'branches' || part.fieldname === 'branches[]') {
        branches.push(field(String(part.value), 'branches'));
      }
    }
    if (!files) throw badRequest('file: Input is required', [{ field: 'file', message: 'Input is required' }]);
    if (!name) throw badRequest('name: Input is required', [{ field: 'name', message: 'Input is required' }]);
    return await createRelease(app.db, app.config, {
      site,
      name,
      branches,
      files,
      forms: await formsOfRelease(app, files),
      actorId,
      deployId: deploy.id,
    });
  } catch (error) {
    // Nothing of a failed upload stays visible; its blobs go with the next garbage collection.
    await dropDeploy(app, deploy.id);
    throw error;
  }
}
