import { MAX_TEXT_LENGTH } from './constants.ts';

// Apart from the schemas: a console page showing a message or checking a pattern loads no zod.

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
