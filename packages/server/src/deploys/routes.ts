import type { Readable } from 'node:stream';
import { api } from '@wharf/contract';
import { mustUploadToSite } from '../access/rules.ts';
import { conflict, unsupportedMediaType } from '../http/errors.ts';
import type { WharfApp } from '../wharfApp.ts';
import { findOpenDeploy } from './deployRows.ts';
import { finishDeploy, receiveDeployFile, startDeploy } from './incremental.ts';
import { uploadArchive } from './uploadArchive.ts';

export function deployRoutes(app: WharfApp) {
  const { db } = app;
  // Deploy files arrive as raw bytes; the handler streams them, so nothing is buffered here.
  app.fastify.addContentTypeParser('application/octet-stream', (_request, payload, done) => done(null, payload));

  /** The deploy of the path and its site, for a caller who may upload to that site. */
  async function deployOf(actor: Parameters<typeof mustUploadToSite>[1], deployId: string) {
    const deploy = await findOpenDeploy(app, deployId);
    const site = await mustUploadToSite(db, actor, deploy.site_id);
    return { deploy, site };
  }

  app.handle(api.uploadRelease, async ({ actor, params, request }) => {
    const site = await mustUploadToSite(db, actor, params.siteId);
    return uploadArchive(app, request, site, actor.userId);
  });

  app.handle(api.createDeploy, async ({ actor, params, body }) => {
    const site = await mustUploadToSite(db, actor, params.siteId);
    return startDeploy(app, site, actor.userId, body);
  });

  app.handle(api.uploadDeployFile, async ({ actor, params, request }) => {
    const { deploy } = await deployOf(actor, params.deployId);
    if (deploy.release_id) throw conflict('The deploy is already finalised');
    if (request.headers['content-type'] !== 'application/octet-stream') {
      throw unsupportedMediaType('Send the file as application/octet-stream');
    }
    await receiveDeployFile(app, params.deployId, params.hash, request.body as Readable);
  });

  app.handle(api.finalizeDeploy, async ({ actor, params }) => {
    const { site } = await deployOf(actor, params.deployId);
    return finishDeploy(app, params.deployId, site);
  });
}
