import { z } from 'zod';
import { MAX_TEXT_LENGTH } from './constants.ts';
import { messages, patterns } from './messages.ts';

/** A zod string that reports a missing value with the spec's 'Input is required'. */
export function text(max: number = MAX_TEXT_LENGTH) {
  return z
    .string({ error: (issue) => (issue.input === undefined ? messages.required : 'Must be text') })
    .max(max, messages.maxLength(max));
}

/** Required text: present and not empty. */
export function requiredText(max: number = MAX_TEXT_LENGTH) {
  return text(max).min(1, messages.required);
}

export function matching(pattern: RegExp, max: number = MAX_TEXT_LENGTH) {
  return requiredText(max).regex(pattern, messages.mustMatch(pattern));
}

export const name = requiredText();
export const email = requiredText().regex(patterns.email, messages.invalidEmail);
export const color = requiredText().regex(patterns.color, messages.mustMatch(patterns.color));
export const siteName = matching(patterns.siteName);
export const password = requiredText();
export const id = requiredText(64);
export const isoDate = z.iso.datetime({ offset: true, error: 'Must be an ISO-8601 date' });
export const bool = z.boolean({
  error: (issue) => (issue.input === undefined ? messages.required : 'Must be true or false'),
});

/** A yes/no of a query string, where it arrives as text: `true` or `false` (a boolean when built in code). */
export const queryFlag = z
  .union([z.boolean(), z.enum(['true', 'false'])], { error: 'Must be true or false' })
  .transform((value) => value === true || value === 'true');

/** Lists whose entries must differ in one text field, case-insensitively. */
export function uniqueBy<T>(list: z.ZodType<T[]>, key: (item: T) => string, message: string, field: string) {
  return list.superRefine((items, ctx) => {
    const seen = new Set<string>();
    items.forEach((item, index) => {
      const value = key(item).toLowerCase();
      if (seen.has(value)) ctx.addIssue({ code: 'custom', message, path: [index, field] });
      seen.add(value);
    });
  });
}

/** spec.md §5 'Search: minimum 3 characters (or empty)'. */
export const search = text()
  .refine((value) => value.length === 0 || value.length >= 3, messages.searchMinLength)
  .optional();

const pageNumber = (max: number) =>
  z.coerce
    .number({ error: 'Must be a number' })
    .int('Must be a whole number')
    .min(0, 'Must be 0 or more')
    .max(max, `Must be ${max} or less`);

export const pageQuery = z.object({
  page: pageNumber(1_000_000).default(0),
  size: pageNumber(100).min(1, 'Must be 1 or more').default(20),
});
