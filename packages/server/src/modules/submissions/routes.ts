import { Readable } from 'node:stream';
import { api } from '@wharf/contract';
import { type Guard, param } from '../../access/guards.ts';
import { feature } from '../../features/feature.ts';
import type { PartsOf } from '../../features/parts.ts';
import { csvFileName, submissionsCsv } from './csvExport.ts';
import { deleteSubmission, findSubmission, listSubmissions } from './queries.ts';

const needs = ['access', 'db', 'handle'] as const;

/**
 * What visitors posted to a site's forms. Submissions hold visitors' personal data, so only those
 * who manage the site (its team's members, the organization's admins and owners) read them.
 */
function submissionRoutes(parts: PartsOf<(typeof needs)[number]>) {
  const { db, access } = parts;

  parts.handle(api.listSubmissions, access.siteManager, async ({ site, query }) => {
    const { page, size, ...filter } = query;
    return listSubmissions(db, site.id, filter, { page, size });
  });

  parts.handle(api.exportSubmissions, access.siteManager, async ({ site, query, reply }) => {
    const fileName = csvFileName(site.name, query, new Date().toISOString().slice(0, 10));
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${fileName}"`)
      .header('cache-control', 'no-store')
      .send(Readable.from(submissionsCsv(db, site.id, query)));
  });

  /** A submission to the path's site, for those who manage the site. */
  const submission = (async (actor, params) => {
    const { site } = await access.siteManager(actor, params);
    return { site, submission: await findSubmission(db, site.id, param(params, 'submissionId')) };
  }) satisfies Guard;

  parts.handle(api.getSubmission, submission, ({ submission }) => submission);

  // No event: deleting a submission removes a visitor's data, which is nothing to announce.
  parts.handle(api.deleteSubmission, submission, async ({ site, params }) => {
    await deleteSubmission(db, site.id, params.submissionId);
  });
}

/** Form submissions, as the console lists them. */
export const submissionsFeature = feature({ name: 'submissions', needs, routes: submissionRoutes });
