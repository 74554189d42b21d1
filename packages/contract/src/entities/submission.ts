import { z } from 'zod';
import { patterns } from '../messages.ts';
import { id, matching, pageQuery, queryFlag } from '../validation.ts';
import { timestamp } from './common.ts';

/** What a visitor posted to a form of a site (`/.wharf/forms/{form}`); the sender's address stays on the server. */
export const submission = z.object({
  _id: z.string(),
  siteId: z.string(),
  branchId: z.string(),
  /** The branch's name now, or when it was posted to for a branch deleted since. */
  branchName: z.string(),
  releaseId: z.string(),
  form: z.string(),
  fields: z.record(z.string(), z.string()),
  /** Caught by a honeypot (the form's field, or `_gotcha`): kept apart, never mailed nor announced. */
  spam: z.boolean(),
  createdAt: timestamp,
});
export type Submission = z.infer<typeof submission>;

/** Which submissions a list or an export covers: the inbox by default, the spam with `spam=true`. */
export const submissionFilter = z.object({
  form: matching(patterns.foundFormName).optional(),
  branchId: id.optional(),
  spam: queryFlag.default(false),
});
export type SubmissionFilter = z.output<typeof submissionFilter>;

export const submissionsQuery = pageQuery.extend(submissionFilter.shape);
