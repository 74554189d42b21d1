import type { UseFormReturnType } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { apiError } from '@wharf/contract';
import { ApiError } from './api.ts';
import { type FailedAction, notifyFailure } from './notify.ts';

/** A form's own field for a field the server names, where the form holds it elsewhere. */
export type FieldOf = (field: string) => string;

/** Puts the server's objections to single fields (VALIDATION_FAILED's details) under those fields. */
export function showFieldErrors<V extends object>(
  form: UseFormReturnType<V>,
  error: unknown,
  fieldOf: FieldOf = (field) => field,
) {
  if (!(error instanceof ApiError)) return;
  const details = apiError.shape.details.safeParse(error.details);
  for (const { field, message } of details.data ?? []) form.setFieldError(fieldOf(field), message);
}

/**
 * The mutation behind a form: a failure is told in the toast of spec.md §8 and, where the server
 * names fields, under each of them.
 */
export function useFormMutation<V extends object, R>(
  form: UseFormReturnType<V>,
  {
    mutationFn,
    onSuccess,
    failedAction,
    fieldOf,
  }: {
    mutationFn: (values: V) => Promise<R>;
    onSuccess?: (result: R) => unknown;
    failedAction: FailedAction;
    fieldOf?: FieldOf;
  },
) {
  return useMutation({
    mutationFn,
    onSuccess,
    onError: (error) => {
      showFieldErrors(form, error, fieldOf);
      notifyFailure(failedAction, error);
    },
  });
}
