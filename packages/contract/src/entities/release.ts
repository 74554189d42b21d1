import { z } from 'zod';
import { email, matching, messages, patterns, uniqueBy } from '../validation.ts';
import { branch } from './branch.ts';
import { timestamp } from './common.ts';

const formName = matching(patterns.formName);

export const form = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('db'), name: formName }),
    z.object({ type: z.literal('email'), name: formName, recipient: email }),
  ],
  { error: 'Must be db or email' },
);
export type Form = z.infer<typeof form>;
export const forms = uniqueBy(
  z.array(form).max(100, 'At most 100 forms'),
  (f) => f.name,
  messages.formNameUnique,
  'name',
);

/** A line of a release's `_redirects` or `_headers` that Wharf refused (error) or doubts (warning). */
export const ruleProblem = z.object({
  file: z.enum(['_redirects', '_headers']),
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
  forms: z.array(form),
  /** The branches that point at this release now. */
  branches: z.array(z.object({ _id: z.string(), name: z.string(), url: z.string() })),
  fileCount: z.number().int(),
  size: z.number().int(),
  /** What is wrong in the release's `_redirects` and `_headers`: the release is stored and served without the refused lines. */
  ruleProblems: z.array(ruleProblem),
});
export type Release = z.infer<typeof release>;

export const formsBody = z.object({ forms });

/** What an upload answers: the release, and the branches now serving it with their URLs. */
export const deployedRelease = release.extend({
  deployedBranches: z.array(branch),
  unchanged: z
    .boolean()
    .describe(
      'True when the upload made no release: its files equal those of the release its branches already serve, which is this one (send force to make one anyway)',
    ),
});
