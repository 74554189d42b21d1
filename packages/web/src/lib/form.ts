import type { FormErrors, UseFormReturnType } from '@mantine/form';
import type { z } from 'zod';

/**
 * Validates a Mantine form with a schema of the contract, so that every message the form shows is
 * the one the server would answer (spec.md §5).
 */
export function contractResolver<T>(schema: z.ZodType) {
  return (values: T): FormErrors => {
    const result = schema.safeParse(values);
    if (result.success) return {};
    const errors: FormErrors = {};
    for (const issue of result.error.issues) {
      const path = issue.path.join('.');
      errors[path] ??= issue.message;
    }
    return errors;
  };
}

/**
 * Validates a form with a schema that loads when first needed: the first page's form then does
 * not bring zod and the contract's rules with it. True when the values pass.
 */
export async function validateWithLazySchema<T extends Record<string, unknown>>(
  form: UseFormReturnType<T>,
  schema: () => Promise<z.ZodType>,
): Promise<boolean> {
  const errors = contractResolver<T>(await schema())(form.getValues());
  form.setErrors(errors);
  return Object.keys(errors).length === 0;
}

/**
 * After a save, the form starts over from what the server answered: those become the values, the
 * values Discard returns to, and the measure of dirtiness.
 */
export function startFormFrom<T extends object>(form: UseFormReturnType<T>, values: T) {
  form.setInitialValues(values);
  form.setValues(values);
  form.resetDirty(values);
}

/** Submits unless the server has already said, while the name was typed, that it is taken. */
export function unlessNameTaken<V extends { name: string }>(
  form: UseFormReturnType<V>,
  check: { error: string | null },
  submit: (values: V) => void,
) {
  return (values: V) => {
    if (check.error) form.setFieldError('name', check.error);
    else submit(values);
  };
}
