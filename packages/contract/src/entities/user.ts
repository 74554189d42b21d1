import { z } from 'zod';
import { timestamp } from './common.ts';

export const user = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  provider: z.string(),
  createdAt: timestamp,
});
export type User = z.infer<typeof user>;
