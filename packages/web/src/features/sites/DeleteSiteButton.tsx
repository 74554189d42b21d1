import { Button } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Site } from '@wharf/contract';
import { useNavigate } from 'react-router';
import { ConfirmModal } from '../../components/ConfirmModal.tsx';
import { call } from '../../lib/api.ts';
import { notifyFailure } from '../../lib/notify.ts';

/** Deletes a site after confirmation, then shows its team's sites. */
export function DeleteSiteButton({ site, variant = 'light' }: { site: Site; variant?: 'light' | 'filled' }) {
  const [opened, { open, close }] = useDisclosure(false);
  const client = useQueryClient();
  const navigate = useNavigate();
  const remove = useMutation({
    mutationFn: () => call(api.deleteSite, { params: { siteId: site._id } }),
    onSuccess: async () => {
      close();
      navigate(`/teams/${site.teamId}/sites`);
      client.removeQueries({ queryKey: [api.getSite.path, { siteId: site._id }] });
      await Promise.all([
        client.invalidateQueries({ queryKey: [api.listTeamSites.path] }),
        client.invalidateQueries({ queryKey: [api.listOrgSites.path] }),
      ]);
    },
    onError: (error) => notifyFailure('delete site', error),
  });
  return (
    <>
      <Button color="red" variant={variant} leftSection={<IconTrash size={16} />} onClick={open}>
        Delete site
      </Button>
      <ConfirmModal
        opened={opened}
        onClose={close}
        title="Delete site"
        confirmLabel="Delete site"
        onConfirm={() => remove.mutate()}
        loading={remove.isPending}
      >
        Delete <b>{site.name}</b> with its branches, releases, tokens and hooks? {site.url} stops answering at once.
        This cannot be undone.
      </ConfirmModal>
    </>
  );
}
