import { z } from 'zod';
import { messages, patterns } from '../messages.ts';
import { id, name, requiredText, text } from '../validation.ts';
import { timestamp } from './common.ts';
import { header } from './site.ts';

export const branch = z.object({
  _id: z.string(),
  siteId: z.string(),
  name: z.string(),
  /** URL-safe form of the name: the branch is served at `{slug}.{site}.{sites host}`. */
  slug: z.string(),
  url: z.string(),
  /** Id of the release the branch serves, null before the first upload. */
  release: z.string().nullable(),
  hasPassword: z.boolean(),
  headers: z.array(header),
  /** When the branch deletes itself (set by an upload with an expiry); null: never. */
  expiresAt: timestamp.nullable(),
  createdAt: timestamp,
});
export type Branch = z.infer<typeof branch>;

export const createBranchBody = z.object({ name, releaseId: id.nullable().optional() });
export const branchNameBody = z.object({ name });
export const setBranchReleaseBody = z.object({ release: id });

const redirectPath = requiredText().regex(patterns.redirectPath, "Must start with '/'");
const httpUrl = requiredText().refine((value) => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}, 'Must be an http(s) URL');

export const redirect = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('file'), path: redirectPath, config: z.object({ content: text(1_000_000) }) }),
    z.object({
      type: z.literal('reverse_proxy'),
      path: redirectPath,
      config: z.object({ url: httpUrl, stripPathPrefix: text().optional() }),
    }),
    z.object({
      type: z.literal('redirect'),
      path: redirectPath,
      config: z.object({
        /** A path of the site, or an absolute http(s) URL. */
        target: requiredText(2000).refine(
          (value) => value.startsWith('/') || httpUrl.safeParse(value).success,
          "Must start with '/' or be an http(s) URL",
        ),
        status: z.union([z.literal(301), z.literal(302), z.literal(307), z.literal(308)], {
          error: 'Must be 301, 302, 307 or 308',
        }),
      }),
    }),
  ],
  { error: 'Must be file, reverse_proxy or redirect' },
);
export type Redirect = z.infer<typeof redirect>;

export const redirects = z
  .array(redirect)
  .max(500, 'At most 500 redirects')
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((entry, index) => {
      if (seen.has(entry.path))
        ctx.addIssue({ code: 'custom', message: messages.redirectPathUnique, path: [index, 'path'] });
      seen.add(entry.path);
    });
  });
export const redirectsBody = z.object({ redirects });
