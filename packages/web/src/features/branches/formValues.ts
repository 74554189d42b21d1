import type { FormErrors } from '@mantine/form';
import { type Form, formsBody } from '@wharf/contract';

/** A form definition as the editor holds it: the recipient stays while the type is switched. */
export interface FormValues {
  type: Form['type'];
  name: string;
  recipient: string;
}

export const formValues = (form?: Form): FormValues => ({
  type: form?.type ?? 'db',
  name: form?.name ?? '',
  recipient: form?.type === 'email' ? form.recipient : '',
});

export const formOf = ({ type, name, recipient }: FormValues): Form =>
  type === 'email' ? { type, name, recipient } : { type, name };

/** The contract's rules for forms (spec.md §5), reported on the editor's own fields. */
export function validateForms(values: { forms: FormValues[] }): FormErrors {
  const result = formsBody.safeParse({ forms: values.forms.map(formOf) });
  if (result.success) return {};
  const errors: FormErrors = {};
  for (const issue of result.error.issues) errors[issue.path.join('.')] ??= issue.message;
  return errors;
}
