import { z } from 'zod';
import { errorCodeNames } from './errorCodes.ts';

/** The body of every failed answer: Fastify's shape with a stable code. */
export const apiError = z.object({
  statusCode: z.number().int(),
  code: z.enum(errorCodeNames),
  error: z.string().describe('The HTTP status text'),
  message: z.string().describe('What went wrong, in words a person can act on'),
  details: z
    .array(z.object({ field: z.string(), message: z.string() }))
    .optional()
    .describe('For VALIDATION_FAILED: each field and its problem'),
});
export type ApiErrorBody = z.infer<typeof apiError>;
