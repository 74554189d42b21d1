import type { FastifySchemaCompiler } from 'fastify';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { z } from 'zod';
import { httpError } from './errors.ts';

const partNames: Record<string, string> = { body: '', querystring: 'query', params: 'path', headers: 'header' };

/** Turns zod issues into the API's error details: the field, and the spec's message. */
export function validationError(error: z.ZodError, part: string) {
  const prefix = partNames[part] ?? part;
  const details = error.issues.map((issue) => ({
    field: [prefix, ...issue.path.map(String)].filter(Boolean).join('.') || prefix || 'body',
    message: issue.message,
  }));
  const first = details[0];
  return httpError('VALIDATION_FAILED', first ? `${first.field}: ${first.message}` : 'Invalid request', details);
}

/** Fastify validates every request part with the contract's zod schemas. */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> = ({ schema, httpPart }) => {
  return (data) => {
    // An absent body is checked as an empty object, so each required field reports 'Input is required'.
    const input = data === undefined && schema instanceof z.ZodObject ? {} : data;
    const result = schema.safeParse(input);
    if (result.success) return { value: result.data };
    return { error: validationError(result.error, httpPart ?? 'body') };
  };
};

/** Responses pass through the contract's schema: only declared fields ever leave the server. */
export const zodSerializerCompiler: FastifySerializerCompiler<z.ZodType> = ({ schema }) => {
  return (data) => JSON.stringify(schema.parse(data));
};
