import { useMutation } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { type FailedAction, notifyFailure } from '../lib/notify.ts';
import { ConfirmModal } from './ConfirmModal.tsx';

/**
 * Asks before deleting a page's subject, deletes it, closes, then lets the page move away
 * (navigate, refresh the lists). A refusal shows as 'Could not {failure}'.
 */
export function DeleteConfirm({
  opened,
  onClose,
  title,
  failure,
  remove,
  onDeleted,
  children,
}: {
  opened: boolean;
  onClose: () => void;
  /** The dialog's title, which is also its confirm button: 'Delete team'. */
  title: string;
  failure: FailedAction;
  remove: () => Promise<unknown>;
  onDeleted: () => unknown;
  children: ReactNode;
}) {
  const mutation = useMutation({
    mutationFn: remove,
    onSuccess: async () => {
      onClose();
      await onDeleted();
    },
    onError: (error) => notifyFailure(failure, error),
  });
  return (
    <ConfirmModal
      opened={opened}
      onClose={onClose}
      title={title}
      confirmLabel={title}
      onConfirm={() => mutation.mutate()}
      loading={mutation.isPending}
    >
      {children}
    </ConfirmModal>
  );
}
