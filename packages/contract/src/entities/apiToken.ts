import { z } from 'zod';
import { isoDate, name } from '../validation.ts';
import { timestamp } from './common.ts';

export const apiToken = z.object({
  _id: z.string(),
  name: z.string(),
  value: z.string(),
  createdAt: timestamp,
  activatesAt: timestamp,
  expiresAt: timestamp.nullable(),
  scopes: z.array(z.string()),
});
export type ApiToken = z.infer<typeof apiToken>;

const scopes = z.array(z.string().max(100)).max(500);

/** spec.md §7: the create call spells the activation date `activesAt`. */
export const createApiTokenBody = z.object({
  name,
  activesAt: isoDate.optional(),
  expiresAt: isoDate.nullable().optional(),
  scopes,
});
export const updateApiTokenBody = z.object({
  name,
  activatesAt: isoDate,
  expiresAt: isoDate.nullable(),
  scopes,
});

export const apiEndpoint = z.object({
  method: z.string(),
  path: z.string(),
  apiScope: z.string().nullable(),
  summary: z.string(),
});
export type ApiEndpoint = z.infer<typeof apiEndpoint>;
