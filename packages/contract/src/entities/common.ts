import { z } from 'zod';

/** spec.md §3 'Paged result: items and count'. */
export function paged<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), count: z.number().int() });
}

export const timestamp = z.string().describe('ISO-8601 date');
export const logoUrl = z.string().nullable().describe('URL of the logo, null when none is set');

/** What a name availability check answers. */
export const nameCheck = z.object({ valid: z.boolean(), message: z.string().optional() });
export type NameCheck = z.infer<typeof nameCheck>;
