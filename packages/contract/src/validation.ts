import { z } from 'zod';
import { MAX_TEXT_LENGTH } from './constants.ts';

/** The exact messages of spec.md §5. */
export const messages = {
  required: 'Input is required',
  maxLength: (max: number = MAX_TEXT_LENGTH) => `Max length is ${max}`,
  invalidEmail: 'Invalid email',
  mustMatch: (pattern: RegExp) => `Must match ${pattern.source}`,
  redirectPathUnique: 'Branch name must be unique',
  headerNameUnique: 'Header name must be unique',
  headerNameReserved: 'Wharf sets this header itself',
  headerValueAscii: 'Must be printable ASCII (percent-encode anything else)',
  formNameUnique: 'Form name must be unique',
  duplicateDomain: 'Duplicate domain',
  onePrimaryDomain: 'Only one domain can be primary',
  searchMinLength: 'Search needs at least 3 characters',
  hookEventsRequired: 'Choose at least one event',
} as const;

export const patterns = {
  email: /^[^\s@]+@[^\s@]+$/,
  color: /^#[0-9a-f]{6}$/,
  /** A site name is a DNS label: it becomes `{site}.{sites host}`. */
  siteName: /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/,
  /** spec.md §5: the name of a form people type in. */
  formName: /^[A-Za-z_]+$/,
  /** The name of a form found in an upload's HTML, as Netlify's sites name them (`contact-form`, `newsletter2`). */
  foundFormName: /^[A-Za-z0-9_-]+$/,
  redirectPath: /^\//,
  headerPath: /^(?:\/.*)?$/,
  hostName: /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/,
  headerName: /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/,
  /** What a header value holds: visible ASCII, spaces and tabs (anything else cannot be sent as is). */
  headerValue: /^[\x20-\x7e\t]*$/,
} as const;

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
