import { Button } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { api, type Site } from '@wharf/contract';
import { useNavigate } from 'react-router';
import { call } from '../lib/api.ts';
import { DeleteConfirm } from './DeleteConfirm.tsx';
import { DeleteMenuItem, PageMenu } from './PageMenu.tsx';

/** Deletes a site after confirmation, then shows its team's sites. */
function DeleteSiteModal({ site, opened, onClose }: { site: Site; opened: boolean; onClose: () => void }) {
  const client = useQueryClient();
  const navigate = useNavigate();
  return (
    <DeleteConfirm
      opened={opened}
      onClose={onClose}
      title="Delete site"
      failure="delete site"
      remove={() => call(api.deleteSite, { params: { siteId: site._id } })}
      onDeleted={async () => {
        navigate(`/teams/${site.teamId}/sites`);
        client.removeQueries({ queryKey: [api.getSite.path, { siteId: site._id }] });
        await Promise.all([
          client.invalidateQueries({ queryKey: [api.listTeamSites.path] }),
          client.invalidateQueries({ queryKey: [api.listOrgSites.path] }),
        ]);
      }}
    >
      Delete <b>{site.name}</b> with its branches, releases, tokens and hooks? {site.url} stops answering at once. This
      cannot be undone.
    </DeleteConfirm>
  );
}

/** The site page's menu, like the team's and the hook's: where 'Delete site' lives. */
export function SiteMenu({ site }: { site: Site }) {
  const [opened, { open, close }] = useDisclosure(false);
  return (
    <>
      <PageMenu label="Site actions">
        <DeleteMenuItem onClick={open}>Delete site</DeleteMenuItem>
      </PageMenu>
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
