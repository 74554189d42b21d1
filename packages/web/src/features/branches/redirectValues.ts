import type { FormErrors } from '@mantine/form';
import { type Redirect, redirectsBody } from '@wharf/contract';

type RedirectStatus = Extract<Redirect, { type: 'redirect' }>['config']['status'];

/** The answers a redirect rule may give, as its Status select offers them. */
export const REDIRECT_STATUSES: { value: `${RedirectStatus}`; label: string }[] = [
  { value: '301', label: '301 Moved permanently' },
  { value: '302', label: '302 Found' },
  { value: '307', label: '307 Temporary redirect' },
  { value: '308', label: '308 Permanent redirect' },
];

/** A redirect rule as the form edits it: the fields of every type stay while the type is switched. */
export interface RedirectValues {
  type: Redirect['type'];
  path: string;
  content: string;
  url: string;
  stripPathPrefix: string;
  target: string;
  /** The Select's value: a status as text. */
  status: `${RedirectStatus}`;
}

export function redirectValues(redirect?: Redirect): RedirectValues {
  const values: RedirectValues = {
    type: 'file',
    path: '',
    content: '',
    url: '',
    stripPathPrefix: '',
    target: '',
    status: '301',
  };
  if (!redirect) return values;
  const common = { ...values, type: redirect.type, path: redirect.path };
  if (redirect.type === 'file') return { ...common, content: redirect.config.content };
  if (redirect.type === 'reverse_proxy')
    return { ...common, url: redirect.config.url, stripPathPrefix: redirect.config.stripPathPrefix ?? '' };
  return { ...common, target: redirect.config.target, status: `${redirect.config.status}` };
}

export function redirectOf(values: RedirectValues): Redirect {
  const { type, path } = values;
  if (type === 'file') return { type, path, config: { content: values.content } };
  if (type === 'redirect')
    return { type, path, config: { target: values.target, status: Number(values.status) as RedirectStatus } };
  return {
    type,
    path,
    config: { url: values.url, ...(values.stripPathPrefix ? { stripPathPrefix: values.stripPathPrefix } : {}) },
  };
}

/** The form's field for a field of the contract (`redirects.0.config.url` → `redirects.0.url`). */
export const redirectField = (field: string) => field.replace('.config.', '.');

/** The contract's rules for redirects (spec.md §5), reported on the form's own fields. */
export function validateRedirects(values: { redirects: RedirectValues[] }): FormErrors {
  const result = redirectsBody.safeParse({ redirects: values.redirects.map(redirectOf) });
  if (result.success) return {};
  const errors: FormErrors = {};
  for (const issue of result.error.issues) errors[redirectField(issue.path.join('.'))] ??= issue.message;
  return errors;
}
