import { useQueryClient } from '@tanstack/react-query';
import { api } from '@wharf/contract';
import { useNavigate } from 'react-router';
import { DeleteConfirm } from '../../components/DeleteConfirm.tsx';
import { call } from '../../lib/api.ts';
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
  const params = { siteId: branch.siteId, branchId: branch._id };
  return (
    <DeleteConfirm
      opened={opened}
      onClose={onClose}
      title="Delete branch"
      failure="delete branch"
      remove={() => call(api.deleteBranch, { params })}
      onDeleted={async () => {
        navigate(`/sites/${branch.siteId}/branches`);
        client.removeQueries({ queryKey: [api.getBranch.path, params] });
        await Promise.all(
          [api.listBranches, api.getSite, api.listReleases].map((route) =>
            client.invalidateQueries({ queryKey: [route.path] }),
          ),
        );
      }}
    >
      Delete <b>{branch.name}</b>? {branch.url} stops answering at once; its releases stay with the site.
    </DeleteConfirm>
  );
}
