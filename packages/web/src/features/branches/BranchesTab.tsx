import { Badge, Button, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconGitBranch, IconLock, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { api, type Branch, MAX_PAGE_SIZE, type Site } from '@wharf/contract';
import { LinkRowWithLinks, RowDetail } from '../../components/ListRow.tsx';
import { ListSection } from '../../components/ListSection.tsx';
import { UrlLink } from '../../components/UrlLink.tsx';
import { apiQuery } from '../../lib/api.ts';
import { newestFirst } from '../../lib/newestFirst.ts';
import { exactTime, relativeTime } from '../../lib/time.ts';
import { AddBranchModal } from './AddBranchModal.tsx';

function BranchRow({ branch, isMain, release }: { branch: Branch; isMain: boolean; release: string | undefined }) {
  return (
    <LinkRowWithLinks
      to={`/sites/${branch.siteId}/branches/${branch._id}`}
      label={`Branch ${branch.name}`}
      leading={<IconGitBranch size={16} stroke={1.5} aria-hidden style={{ flex: 'none' }} />}
      title={branch.name}
      badges={
        <>
          {isMain && (
            <Badge size="sm" variant="filled">
              main
            </Badge>
          )}
          {branch.hasPassword && <IconLock size={14} aria-label="Password protected" />}
        </>
      }
      details={
        <>
          <UrlLink url={branch.url} size="xs" />
          <RowDetail title={exactTime(branch.createdAt)} truncate={false}>
            {release ? `Serves ${release}` : 'No release yet'} · created {relativeTime(branch.createdAt)}
          </RowDetail>
          {branch.expiresAt && (
            <RowDetail title={exactTime(branch.expiresAt)} truncate={false}>
              Expires {relativeTime(branch.expiresAt)}
            </RowDetail>
          )}
        </>
      }
    />
  );
}

/** The Branches tab of a site: newest first, the main branch marked, 'Add branch' for those who manage it. */
export function BranchesTab({ site, canManage }: { site: Site; canManage: boolean }) {
  const [opened, { open, close }] = useDisclosure(false);
  const branches = useQuery(apiQuery(api.listBranches, { params: { siteId: site._id } }));
  const releases = useQuery(
    apiQuery(api.listReleases, { params: { siteId: site._id }, query: { size: MAX_PAGE_SIZE } }),
  );
  const releaseNames = new Map(releases.data?.items.map((release) => [release._id, release.name]));

  const addButton = canManage && (
    <Button leftSection={<IconPlus size={16} />} onClick={open}>
      Add branch
    </Button>
  );
  return (
    <Stack>
      <ListSection
        query={branches}
        errorTitle="Could not list branches"
        empty={{
          icon: <IconGitBranch size={26} stroke={1.5} />,
          title: 'No branches',
          description: 'Branches point at releases, each at its own address.',
        }}
        intro="Each branch serves one release at its own address."
        action={addButton}
      >
        {(items) =>
          newestFirst(items).map((branch) => (
            <BranchRow
              key={branch._id}
              branch={branch}
              isMain={branch._id === site.mainBranch}
              release={branch.release ? (releaseNames.get(branch.release) ?? 'an older release') : undefined}
            />
          ))
        }
      </ListSection>
      {canManage && <AddBranchModal siteId={site._id} opened={opened} onClose={close} />}
    </Stack>
  );
}
