import type { FormErrors } from '@mantine/form';
import { type SiteForm, type SiteFormInput, siteFormsBody } from '@wharf/contract';

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

/** The contract's rules for forms (spec.md §5), reported on the editor's own fields. */
export function validateForms(values: { forms: FormValues[] }): FormErrors {
  const result = siteFormsBody.safeParse({ forms: values.forms.map(formOf) });
  if (result.success) return {};
  const errors: FormErrors = {};
  for (const issue of result.error.issues) errors[issue.path.join('.')] ??= issue.message;
  return errors;
}
