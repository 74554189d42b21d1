import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@wharf/contract';
import { useNavigate } from 'react-router';
import { ConfirmModal } from '../../components/ConfirmModal.tsx';
import { call } from '../../lib/api.ts';
import { notifyFailure } from '../../lib/notify.ts';
import type { BranchDetail } from './branchQuery.ts';

/** Deletes a branch after confirmation, then shows the site's branches. */
export function DeleteBranchModal({
  branch,
  opened,
  onClose,
}: {
  branch: BranchDetail;
  opened: boolean;
  onClose: () => void;
}) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const remove = useMutation({
    mutationFn: () => call(api.deleteBranch, { params: { siteId: branch.siteId, branchId: branch._id } }),
    onSuccess: async () => {
      onClose();
      navigate(`/sites/${branch.siteId}/branches`);
      client.removeQueries({ queryKey: [api.getBranch.path, { siteId: branch.siteId, branchId: branch._id }] });
      await Promise.all(
        [api.listBranches, api.getSite, api.listReleases].map((route) =>
          client.invalidateQueries({ queryKey: [route.path] }),
        ),
      );
    },
    onError: (error) => notifyFailure('delete branch', error),
  });
  return (
    <ConfirmModal
      opened={opened}
      onClose={onClose}
      title="Delete branch"
      confirmLabel="Delete branch"
      onConfirm={() => remove.mutate()}
      loading={remove.isPending}
    >
      Delete <b>{branch.name}</b>? {branch.url} stops answering at once; its releases stay with the site.
    </ConfirmModal>
  );
}
