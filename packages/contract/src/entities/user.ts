import { z } from 'zod';
import { timestamp } from './common.ts';

/** The sign-in providers besides the in-memory form; each is a full-page flow at /auth/{provider}. */
export const SIGN_IN_PROVIDERS = ['github', 'gitlab', 'gitea', 'oidc'] as const;
export type SignInProvider = (typeof SIGN_IN_PROVIDERS)[number];

export const user = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  /** The provider of the account the user first signed in with. */
  provider: z.string(),
  avatarUrl: z.string().nullable(),
  /** Whether this user may create organizations (WHARF_ORG_CREATORS). */
  canCreateOrgs: z.boolean(),
  createdAt: timestamp,
});
export type User = z.infer<typeof user>;

/** One account a user signs in with: a provider and the provider's own id of the person. */
export const identity = z.object({
  _id: z.string(),
  provider: z.string(),
  /** The person's name at the provider (login, username or preferred_username). */
  login: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  /** Whether the current session was opened with this account. */
  current: z.boolean(),
  createdAt: timestamp,
  lastSignInAt: timestamp.nullable(),
});
export type Identity = z.infer<typeof identity>;

/**
 * Why a sign-in or a link through a provider was refused: /login?error={code} (or
 * /user/security?error={code} for a link) shows the matching text, and no session is made.
 */
export const SIGN_IN_ERRORS = [
  'SIGN_IN_METHOD_UNKNOWN',
  'SIGN_IN_STATE_MISMATCH',
  'SIGN_IN_EXPIRED',
  'SIGN_IN_CANCELLED',
  'SIGN_IN_FAILED',
  'SIGN_IN_PROVIDER_UNREACHABLE',
  'SIGN_IN_NOT_ALLOWED',
  'IDENTITY_IN_USE',
] as const;
export type SignInError = (typeof SIGN_IN_ERRORS)[number];
