import { z } from 'zod';
import { bool, color, email, name } from '../validation.ts';
import { logoUrl, timestamp } from './common.ts';

export const org = z.object({
  _id: z.string(),
  name: z.string(),
  color: z.string(),
  logo: logoUrl,
  createdAt: timestamp,
});
export type Org = z.infer<typeof org>;

/** Without a color, the server derives one from the name. */
export const createOrgBody = z.object({ name, color: color.optional() });
export const updateOrgBody = z.object({ name, color });

/** The signed-in user's own membership of an organization. */
export const currentMember = z.object({ _id: z.string(), admin: z.boolean(), owner: z.boolean() });
export type CurrentMember = z.infer<typeof currentMember>;

export const orgMember = z.object({
  _id: z.string(),
  userId: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  admin: z.boolean(),
  owner: z.boolean(),
  /** How the member joined by invitation: the invited address and the account that accepted it. */
  invitation: z
    .object({
      email: z.string(),
      provider: z.string(),
      login: z.string(),
      providerEmail: z.string().nullable(),
    })
    .nullable(),
  createdAt: timestamp,
});
export type OrgMember = z.infer<typeof orgMember>;

export const updateMemberBody = z.object({ admin: bool });

export const invite = z.object({
  _id: z.string(),
  email: z.string(),
  expiresAt: timestamp,
  memberOptions: z.object({ admin: z.boolean() }),
  createdAt: timestamp,
});
export type Invite = z.infer<typeof invite>;

/** Answered once, at creation: the only time the invite link can be read. */
export const createdInvite = invite.extend({ url: z.string(), token: z.string() });

/** The invite as its recipient sees it. */
export const receivedInvite = invite.extend({
  org: org.pick({ _id: true, name: true, color: true, logo: true }),
});
export type ReceivedInvite = z.infer<typeof receivedInvite>;

export const createInviteBody = z.object({ email, admin: bool.default(false) });
export const inviteTokenBody = z.object({ token: name });
