import { api } from '@wharf/contract';
import type { FastifyRequest } from 'fastify';
import { type Guard, param } from '../../../access/guards.ts';
import { mustUploadToSite } from '../../../access/rules.ts';
import type { Database } from '../../../db/schema.ts';
import type { PartsOf } from '../../../features/parts.ts';
import { sendCompressedJson } from '../../../http/compressedAnswer.ts';
import { isDiskFull } from '../../../http/diskFull.ts';
import { httpError } from '../../../http/errors.ts';
import { withIdempotencyKey } from '../../../http/idempotency.ts';
import { uploadBody } from '../../../http/uploadBody.ts';
import { uploaderOf } from '../origin.ts';
import { deployBaseOf } from './deployBase.ts';
import { receiveDeployFile, receiveDeployFiles } from './deployFiles.ts';
import { findOpenDeploy } from './deployRows.ts';

type OpenDeploy = Awaited<ReturnType<typeof findOpenDeploy>>;

import { dropOnDiskFull, finishDeploy, startDeploy } from './incremental.ts';
import { fingerprintOfUpload, uploadArchive } from './uploadArchive.ts';

export function deployRoutes(
  parts: PartsOf<
    'access' | 'blobs' | 'config' | 'db' | 'deployMetrics' | 'fastify' | 'handle' | 'jobs' | 'log' | 'node'
  >,
) {
  const { db, deployMetrics } = parts;
  // Deploy files arrive as raw bytes or a tar of them; the handler streams them, so nothing is buffered here.
  for (const mediaType of ['application/octet-stream', 'application/x-tar'])
    parts.fastify.addContentTypeParser(mediaType, (_request, payload, done) => done(null, payload));
  // An upload may run as long as a deploy may stay open; a claim older than that was cut off by a crash.
  const runningTtlMs = parts.config.deployTtlMs;

  /** The deploy of the path and its site, for a caller who may upload to that site. */
  const deployOf: Guard<{ deploy: OpenDeploy; site: Database['sites'] }> = async (actor, params) => {
    const deploy = await findOpenDeploy(parts, param(params, 'deployId'));
    const site = await mustUploadToSite(db, actor, deploy.site_id);
    return { deploy, site };
  };

  /** The deploy still taking files, with a body of the route's media type. */
  function takingFiles(
    { deploy, site }: { deploy: OpenDeploy; site: Database['sites'] },
    request: FastifyRequest,
    mediaType: string,
  ) {
    if (deploy.release_id) throw httpError('DEPLOY_FINALISED', 'The deploy is already finalised');
    if (request.headers['content-type']?.split(';')[0]?.trim() !== mediaType) {
      throw httpError('MEDIA_TYPE_UNSUPPORTED', `Send the files as ${mediaType}`);
    }
    return { id: deploy.id, orgId: site.org_id };
  }

  parts.handle(api.uploadRelease, parts.access.siteUploader, async ({ actor, site, request, reply }) => {
    return withIdempotencyKey(
      db,
      { request, reply, actor, runningTtlMs, holder: parts.node },
      {
        fingerprint: () => fingerprintOfUpload(request, parts.config.limits),
        run: async () => {
          const uploader = await uploaderOf(db, actor);
          const upload = () => uploadArchive(parts, request, site, { actorId: actor.userId, uploader });
          const { release, fingerprint } = await deployMetrics.failuresOf(upload);
          return { answer: release, fingerprint };
        },
      },
    );
  });

  parts.handle(api.getDeployBase, parts.access.siteUploader, async ({ site, query, request, reply }) =>
    sendCompressedJson(request, reply, await deployBaseOf(db, site, query.branch)),
  );

  parts.handle(api.createDeploy, parts.access.siteUploader, async ({ actor, site, body, request, reply }) => {
    const fingerprint = JSON.stringify(body);
    return withIdempotencyKey(
      db,
      { request, reply, actor, runningTtlMs, holder: parts.node },
      {
        fingerprint: async () => fingerprint,
        run: async () => {
          const uploader = await uploaderOf(db, actor);
          const deploy = await deployMetrics.failuresOf(() => startDeploy(parts, site, actor.userId, body, uploader));
          return { answer: deploy, fingerprint };
        },
      },
    );
  });

  parts.handle(api.uploadDeployFile, deployOf, async ({ deploy: open, site, params, request }) => {
    const deploy = takingFiles({ deploy: open, site }, request, 'application/octet-stream');
    // A file that did not arrive may be sent again; a full disk drops the deploy.
    await deployMetrics.failuresOf(
      () => dropOnDiskFull(parts, deploy.id, () => receiveDeployFile(parts, deploy, params.hash, uploadBody(request))),
      isDiskFull,
    );
  });

  parts.handle(api.uploadDeployFiles, deployOf, async ({ deploy: open, site, request }) => {
    const deploy = takingFiles({ deploy: open, site }, request, 'application/x-tar');
    await deployMetrics.failuresOf(
      () => dropOnDiskFull(parts, deploy.id, () => receiveDeployFiles(parts, deploy, uploadBody(request))),
      isDiskFull,
    );
  });

  // Needs no Idempotency-Key: the deploy is the key, and a second finalise answers what the first made.
  parts.handle(api.finalizeDeploy, deployOf, async ({ deploy, site }) => {
    return deployMetrics.failuresOf(() => dropOnDiskFull(parts, deploy.id, () => finishDeploy(parts, deploy.id, site)));
  });
}
