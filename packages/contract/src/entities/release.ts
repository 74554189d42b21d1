import { z } from 'zod';
import { branch } from './branch.ts';
import { timestamp } from './common.ts';
import { form } from './form.ts';

/** A line of a release's `_redirects`, `_headers` or `.wharf.yml` that Wharf refused (error) or doubts (warning). */
export const ruleProblem = z.object({
  /** `_redirects`, `_headers`, `.wharf.yml`, or the path of an HTML page whose form could not be taken. */
  file: z.string(),
  line: z.number().int(),
  message: z.string(),
  severity: z.enum(['error', 'warning']),
});
export type RuleProblem = z.infer<typeof ruleProblem>;

export const release = z.object({
  _id: z.string(),
  siteId: z.string(),
  name: z.string(),
  date: timestamp,
  /** The forms of the site as the branches serving this release see them (for one that none serves: those of every branch). */
  forms: z.array(form),
  /** The branches that point at this release now. */
  branches: z.array(z.object({ _id: z.string(), name: z.string(), url: z.string() })),
  fileCount: z.number().int(),
  size: z.number().int(),
  /** What is wrong in the release's `_redirects` and `_headers`: the release is stored and served without the refused lines. */
  ruleProblems: z.array(ruleProblem),
});
export type Release = z.infer<typeof release>;

/** What an upload answers: the release, and the branches now serving it with their URLs. */
export const deployedRelease = release.extend({
  deployedBranches: z.array(branch),
  unchanged: z
    .boolean()
    .describe(
      'True when the upload made no release: its files equal those of the release its branches already serve, which is this one (send force to make one anyway)',
    ),
});
export type DeployedRelease = z.infer<typeof deployedRelease>;
