import { z } from 'zod';
import { CONSOLE_PAGE_PATH, CONSOLE_PAGE_PATH_MAX_LENGTH } from '../constants.ts';
import { requiredText } from '../validation.ts';

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
    /** Mail is on (SMTP_URL is set): invitations, email forms and email hooks send mail. */
    email: z.boolean(),
    /** A container runtime is configured (WHARF_BUILD_RUNTIME): connected sites build from their repositories. */
    builds: z.boolean(),
  }),
  /** The display name of the OpenID Connect button (WHARF_OIDC_NAME), when that provider is on. */
  signIn: z.object({ oidcName: z.string().nullable() }),
  crashReports: z.object({ dsn: z.string().nullable() }),
  analytics: z.object({ enabled: z.boolean() }),
});
export type SystemEnv = z.infer<typeof systemEnv>;

export const authMethods = z.array(z.string());

/** The in-memory method's form: a user name and a password. */
export const signInBody = z.object({ user: requiredText(), password: requiredText() });

/** The shape of a console page (CONSOLE_PAGE_PATH): what anonymous usage analytics count, and all they count. */
export const consolePagePath = requiredText(CONSOLE_PAGE_PATH_MAX_LENGTH).regex(
  CONSOLE_PAGE_PATH,
  'Must be a page path of lowercase letters, digits, /, :, _ and -',
);

export const pageViewsBody = z.object({
  views: z
    .array(z.object({ path: consolePagePath, count: z.number().int().min(1).max(1000) }))
    .min(1, 'No views')
    .max(50, 'At most 50 paths at once'),
});
export type PageViews = z.infer<typeof pageViewsBody>;
