import type { UseFormReturnType } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { apiError } from '@wharf/contract';
import { ApiError } from './api.ts';
import { type FailedAction, notifyFailure } from './notify.ts';

/** Puts the server's objections to single fields (VALIDATION_FAILED's details) under those fields. */
export function showFieldErrors<V extends object>(form: UseFormReturnType<V>, error: unknown) {
  if (!(error instanceof ApiError)) return;
  const details = apiError.shape.details.safeParse(error.details);
  for (const { field, message } of details.data ?? []) form.setFieldError(field, message);
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
  }: {
    mutationFn: (values: V) => Promise<R>;
    onSuccess?: (result: R) => unknown;
    failedAction: FailedAction;
  },
) {
  return useMutation({
    mutationFn,
    onSuccess,
    onError: (error) => {
      showFieldErrors(form, error);
      notifyFailure(failedAction, error);
    },
  });
}
