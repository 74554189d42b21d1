import { api } from '@wharf/contract';
import type { FastifyRequest } from 'fastify';
import { mustUploadToSite } from '../access/rules.ts';
import { httpError } from '../http/errors.ts';
import { withIdempotencyKey } from '../http/idempotency.ts';
import { uploadBody } from '../http/uploadBody.ts';
import type { WharfApp } from '../wharfApp.ts';
import { receiveDeployFile, receiveDeployFiles } from './deployFiles.ts';
import { findOpenDeploy } from './deployRows.ts';
import { dropOnDiskFull, finishDeploy, startDeploy } from './incremental.ts';
import { fingerprintOfUpload, uploadArchive } from './uploadArchive.ts';

export function deployRoutes(app: WharfApp) {
  const { db } = app;
  // Deploy files arrive as raw bytes or a tar of them; the handler streams them, so nothing is buffered here.
  for (const mediaType of ['application/octet-stream', 'application/x-tar'])
    app.fastify.addContentTypeParser(mediaType, (_request, payload, done) => done(null, payload));
  // An upload may run as long as a deploy may stay open; a claim older than that was cut off by a crash.
  const runningTtlMs = app.config.deployTtlMs;

  /** The deploy of the path and its site, for a caller who may upload to that site. */
  async function deployOf(actor: Parameters<typeof mustUploadToSite>[1], deployId: string) {
    const deploy = await findOpenDeploy(app, deployId);
    const site = await mustUploadToSite(db, actor, deploy.site_id);
    return { deploy, site };
  }

  /** The deploy still taking files, for a caller who may upload to it, with a body of the route's media type. */
  async function deployTakingFiles(
    actor: Parameters<typeof mustUploadToSite>[1],
    deployId: string,
    request: FastifyRequest,
    mediaType: string,
  ) {
    const { deploy, site } = await deployOf(actor, deployId);
    if (deploy.release_id) throw httpError('DEPLOY_FINALISED', 'The deploy is already finalised');
    if (request.headers['content-type']?.split(';')[0]?.trim() !== mediaType) {
      throw httpError('MEDIA_TYPE_UNSUPPORTED', `Send the files as ${mediaType}`);
    }
    return { id: deploy.id, orgId: site.org_id };
  }

  app.handle(api.uploadRelease, async ({ actor, params, request, reply }) => {
    const site = await mustUploadToSite(db, actor, params.siteId);
    return withIdempotencyKey(
      db,
      { request, reply, actor, runningTtlMs, holder: app.node.instance },
      {
        fingerprint: () => fingerprintOfUpload(request, app.config.limits),
        run: async () => {
          const { release, fingerprint } = await uploadArchive(app, request, site, actor.userId);
          return { answer: release, fingerprint };
        },
      },
    );
  });

  app.handle(api.createDeploy, async ({ actor, params, body, request, reply }) => {
    const site = await mustUploadToSite(db, actor, params.siteId);
    const fingerprint = JSON.stringify(body);
    return withIdempotencyKey(
      db,
      { request, reply, actor, runningTtlMs, holder: app.node.instance },
      {
        fingerprint: async () => fingerprint,
        run: async () => ({ answer: await startDeploy(app, site, actor.userId, body), fingerprint }),
      },
    );
  });

  app.handle(api.uploadDeployFile, async ({ actor, params, request }) => {
    const deploy = await deployTakingFiles(actor, params.deployId, request, 'application/octet-stream');
    await dropOnDiskFull(app, deploy.id, () => receiveDeployFile(app, deploy, params.hash, uploadBody(request)));
  });

  app.handle(api.uploadDeployFiles, async ({ actor, params, request }) => {
    const deploy = await deployTakingFiles(actor, params.deployId, request, 'application/x-tar');
    await dropOnDiskFull(app, deploy.id, () => receiveDeployFiles(app, deploy, uploadBody(request)));
  });

  // Needs no Idempotency-Key: the deploy is the key, and a second finalise answers what the first made.
  app.handle(api.finalizeDeploy, async ({ actor, params }) => {
    const { site } = await deployOf(actor, params.deployId);
    return dropOnDiskFull(app, params.deployId, () => finishDeploy(app, params.deployId, site));
  });
}
