import { z } from 'zod';
import { color, id, name } from '../validation.ts';
import { logoUrl, timestamp } from './common.ts';

export const team = z.object({
  _id: z.string(),
  orgId: z.string(),
  name: z.string(),
  color: z.string(),
  logo: logoUrl,
  createdAt: timestamp,
});
export type Team = z.infer<typeof team>;

/** Without a color, the server derives one from the name. */
export const createTeamBody = z.object({ name, color: color.optional() });
export const updateTeamBody = z.object({ name, color });

/** A member of a team; `admin` tells whether that person administers the organization. */
export const teamMember = z.object({
  memberId: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  admin: z.boolean(),
});
export type TeamMember = z.infer<typeof teamMember>;

/** spec.md §7 `PUT /teams/{teamId}/members/{memberId} {member}`: names the org member to add. */
export const addTeamMemberBody = z.object({ member: id });
