import { z } from 'zod';
import { eventNames } from '../events.ts';
import { id, pageQuery } from '../validation.ts';
import { timestamp } from './common.ts';

/** One entry of an organization's audit log: an event of its outbox, in words. */
export const auditEntry = z.object({
  _id: z.string(),
  event: z.string().describe('The event name (spec.md §3)'),
  createdAt: timestamp,
  actor: z.object({ _id: z.string(), name: z.string() }).nullable().describe('Null when Wharf itself acted'),
  teamId: z.string().nullable(),
  siteId: z.string().nullable(),
  summary: z.string().describe('The event in a sentence: "Ada set release \'v2\' on branch main of blog"'),
  link: z.string().nullable().describe('Path of the console page about it, null when there is none left'),
  data: z.record(z.string(), z.unknown()),
});
export type AuditEntry = z.infer<typeof auditEntry>;

export const auditQuery = pageQuery.extend({
  teamId: id.optional(),
  siteId: id.optional(),
  actorId: id.optional(),
  event: z.enum(eventNames, { error: 'Unknown event' }).optional(),
});
