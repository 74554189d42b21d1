import { z } from 'zod';

export const systemInfo = z.object({ version: z.string() });
export type SystemInfo = z.infer<typeof systemInfo>;

/** Everything the console needs to know of this installation. */
export const systemEnv = z.object({
  /** The Wharf URL the upload command talks to. */
  url: z.string(),
  /** Sites are served at `{branch}.{site}.{host of sitesUrl}`. */
  sitesUrl: z.string(),
  version: z.string(),
  features: z.object({
    /** Domains may use ACME (automatic HTTPS). */
    httpsAuto: z.boolean(),
    /** Invites and email hooks send mail. */
    email: z.boolean(),
  }),
  crashReports: z.object({ dsn: z.string().nullable() }),
  analytics: z.object({ enabled: z.boolean() }),
});
export type SystemEnv = z.infer<typeof systemEnv>;

export const authMethods = z.array(z.string());
