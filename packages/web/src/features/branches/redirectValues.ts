import type { FormErrors } from '@mantine/form';
import { type Redirect, redirectsBody } from '@wharf/contract';

/** A redirect rule as the form edits it: the fields of both types stay while the type is switched. */
export interface RedirectValues {
  type: Redirect['type'];
  path: string;
  content: string;
  url: string;
  stripPathPrefix: string;
}

export function redirectValues(redirect?: Redirect): RedirectValues {
  const values: RedirectValues = { type: 'file', path: '', content: '', url: '', stripPathPrefix: '' };
  if (redirect?.type === 'file') return { ...values, path: redirect.path, content: redirect.config.content };
  if (redirect?.type === 'reverse_proxy')
    return {
      ...values,
      type: 'reverse_proxy',
      path: redirect.path,
      url: redirect.config.url,
      stripPathPrefix: redirect.config.stripPathPrefix ?? '',
    };
  return values;
}

export function redirectOf(values: RedirectValues): Redirect {
  if (values.type === 'file') return { type: 'file', path: values.path, config: { content: values.content } };
  return {
    type: 'reverse_proxy',
    path: values.path,
    config: { url: values.url, ...(values.stripPathPrefix ? { stripPathPrefix: values.stripPathPrefix } : {}) },
  };
}

/** The contract's rules for redirects (spec.md §5), reported on the form's own fields. */
export function validateRedirects(values: { redirects: RedirectValues[] }): FormErrors {
  const result = redirectsBody.safeParse({ redirects: values.redirects.map(redirectOf) });
  if (result.success) return {};
  const errors: FormErrors = {};
  for (const issue of result.error.issues) errors[issue.path.join('.').replace('.config.', '.')] ??= issue.message;
  return errors;
}
