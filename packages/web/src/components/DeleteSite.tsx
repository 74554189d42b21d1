import { ActionIcon, Button, Menu } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconDots, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Site } from '@wharf/contract';
import { useNavigate } from 'react-router';
import { call } from '../lib/api.ts';
import { notifyFailure } from '../lib/notify.ts';
import { ConfirmModal } from './ConfirmModal.tsx';

/** Deletes a site after confirmation, then shows its team's sites. */
function DeleteSiteModal({ site, opened, onClose }: { site: Site; opened: boolean; onClose: () => void }) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const remove = useMutation({
    mutationFn: () => call(api.deleteSite, { params: { siteId: site._id } }),
    onSuccess: async () => {
      onClose();
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
    <ConfirmModal
      opened={opened}
      onClose={onClose}
      title="Delete site"
      confirmLabel="Delete site"
      onConfirm={() => remove.mutate()}
      loading={remove.isPending}
    >
      Delete <b>{site.name}</b> with its branches, releases, tokens and hooks? {site.url} stops answering at once. This
      cannot be undone.
    </ConfirmModal>
  );
}

/** The site page's menu, like the team's and the hook's: where 'Delete site' lives. */
export function SiteMenu({ site }: { site: Site }) {
  const [opened, { open, close }] = useDisclosure(false);
  return (
    <>
      <Menu position="bottom-end">
        <Menu.Target>
          <ActionIcon variant="default" size="lg" aria-label="Site actions">
            <IconDots size={18} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={open}>
            Delete site
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <DeleteSiteModal site={site} opened={opened} onClose={close} />
    </>
  );
}

/** 'Delete site' as a button, for the danger zone of the site's settings. */
export function DeleteSiteButton({ site }: { site: Site }) {
  const [opened, { open, close }] = useDisclosure(false);
  return (
    <>
      <Button color="red" leftSection={<IconTrash size={16} />} onClick={open}>
        Delete site
      </Button>
      <DeleteSiteModal site={site} opened={opened} onClose={close} />
    </>
  );
}
