import { Button, Group, Modal, Stack } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { ReactNode } from 'react';
import type { FailedAction } from '../lib/notify.ts';
import { useFormMutation } from '../lib/useFormMutation.ts';

/**
 * The state of a modal that creates something: its mutation, a close that starts the form and the
 * answer over so that the modal opens blank next time, and the props of its FormModal.
 */
export function useCreateModal<V extends object, R>({
  form,
  opened,
  onClose,
  create,
  onCreated,
  failedAction,
}: {
  form: UseFormReturnType<V>;
  opened: boolean;
  onClose: () => void;
  create: (values: V) => Promise<R>;
  /** Receives the answer and the modal's close, for those that leave at once. */
  onCreated?: (created: R, close: () => void) => unknown;
  failedAction: FailedAction;
}) {
  const mutation = useFormMutation(form, {
    mutationFn: create,
    onSuccess: (created) => onCreated?.(created, close),
    failedAction,
  });
  const close = () => {
    form.reset();
    mutation.reset();
    onClose();
  };
  const modal = { opened, close, form, pending: mutation.isPending, onSubmit: mutation.mutate };
  return { mutation, modal };
}

/** A modal with a form: its fields, then Cancel and the submit button, which spins while the call runs. */
export function FormModal<V extends object>({
  title,
  opened,
  close,
  form,
  pending,
  submitLabel = 'Create',
  onSubmit,
  done,
  size,
  children,
}: {
  title: string;
  opened: boolean;
  close: () => void;
  form: UseFormReturnType<V>;
  pending: boolean;
  submitLabel?: string;
  onSubmit: (values: V) => void;
  /** Shown in place of the form once it is done, for what the answer shows only once. */
  done?: ReactNode;
  /** Mantine's modal size, for a done view wider than the form. */
  size?: string;
  children: ReactNode;
}) {
  return (
    <Modal opened={opened} onClose={close} title={title} size={size}>
      {done ?? (
        <form onSubmit={form.onSubmit((values) => onSubmit(values))} noValidate>
          <Stack>
            {children}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={pending}>
                {submitLabel}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
