import type { FormErrors } from '@mantine/form';
import { newFormNameIssues, type SiteForm, type SiteFormInput, siteFormsBody } from '@wharf/contract';

/** A form of the site as the editor holds it: the recipient stays while the type is switched. */
export interface FormValues {
  type: SiteForm['type'];
  name: string;
  recipient: string;
  /** Kept as it came: the editor has no field for it. */
  honeypot: string;
  /** The branch ids it is narrowed to; none: every branch. */
  branches: string[];
  /** Found in an upload's HTML (as saved): marked so while its definition is unchanged. */
  detected: boolean;
}

export const formValues = (form?: SiteForm): FormValues => ({
  type: form?.type ?? 'db',
  name: form?.name ?? '',
  recipient: form?.type === 'email' ? form.recipient : '',
  honeypot: form?.honeypot ?? '',
  branches: form?.branches ?? [],
  detected: form?.detected ?? false,
});

export function formOf({ type, name, recipient, honeypot, branches }: FormValues): SiteFormInput {
  const common = { name, ...(honeypot ? { honeypot } : {}), branches: branches.length > 0 ? branches : null };
  return type === 'email' ? { type, recipient, ...common } : { type, ...common };
}

/** Whether the branch accepts posts to the form: every branch does unless it is narrowed to others. */
export const isOnBranch = (form: FormValues, branchId: string) =>
  form.branches.length === 0 || form.branches.includes(branchId);

/**
 * The contract's rules for forms (spec.md §5), reported on the editor's own fields: a name the site
 * has (`siteNames`, as saved: one found in the HTML as `contact-form` too) is kept as it is; a name
 * typed in follows the spec's pattern, as the server checks it.
 */
export function validateForms(values: { forms: FormValues[] }, siteNames: Iterable<string>): FormErrors {
  const errors: FormErrors = {};
  const result = siteFormsBody.safeParse({ forms: values.forms.map(formOf) });
  for (const issue of result.error?.issues ?? []) errors[issue.path.join('.')] ??= issue.message;
  for (const issue of newFormNameIssues(values.forms, siteNames)) errors[issue.field] ??= issue.message;
  return errors;
}
