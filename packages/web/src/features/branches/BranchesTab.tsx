import { Badge, Button, Group, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconChevronRight, IconGitBranch, IconLock, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { api, type Branch, MAX_PAGE_SIZE, type Site } from '@wharf/contract';
import { useNavigate } from 'react-router';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import classes from '../../components/ListRow.module.css';
import { UrlLink } from '../../components/UrlLink.tsx';
import { apiQuery } from '../../lib/api.ts';
import { newestFirst } from '../../lib/newestFirst.ts';
import { exactTime, relativeTime } from '../../lib/time.ts';
import { AddBranchModal } from './AddBranchModal.tsx';

function BranchRow({ branch, isMain, release }: { branch: Branch; isMain: boolean; release: string | undefined }) {
  const navigate = useNavigate();
  const path = `/sites/${branch.siteId}/branches/${branch._id}`;
  return (
    // A row is a link to the branch, with the branch's own address as a link inside it.
    // biome-ignore lint/a11y/useSemanticElements: a link inside a link is not valid HTML
    <div
      className={classes.row}
      role="link"
      tabIndex={0}
      aria-label={`Branch ${branch.name}`}
      onClick={() => navigate(path)}
      onKeyDown={(event) => event.key === 'Enter' && navigate(path)}
      style={{ cursor: 'pointer' }}
    >
      <Group wrap="nowrap" justify="space-between">
        <Stack gap={2} miw={0}>
          <Group gap={6} wrap="nowrap">
            <IconGitBranch size={16} stroke={1.5} aria-hidden />
            <Text fw={600} truncate>
              {branch.name}
            </Text>
            {isMain && (
              <Badge size="sm" variant="filled">
                main
              </Badge>
            )}
            {branch.hasPassword && <IconLock size={14} aria-label="Password protected" />}
          </Group>
          <UrlLink url={branch.url} size="xs" />
          <Text size="xs" c="dimmed" title={exactTime(branch.createdAt)}>
            {release ? `Serves ${release}` : 'No release yet'} · created {relativeTime(branch.createdAt)}
          </Text>
        </Stack>
        <IconChevronRight size={18} stroke={1.5} color="var(--mantine-color-dimmed)" />
      </Group>
    </div>
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
      {branches.error && <ErrorPanel title="Could not list branches" query={branches} />}
      {branches.isPending && <Skeleton h={120} />}
      {branches.data?.length === 0 && (
        <EmptyState
          icon={<IconGitBranch size={26} stroke={1.5} />}
          title="No branches"
          description="Branches point at releases, each at its own address."
          action={addButton}
        />
      )}
      {branches.data && branches.data.length > 0 && (
        <>
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              Each branch serves one release at its own address.
            </Text>
            {addButton}
          </Group>
          <Paper withBorder className={classes.list}>
            {newestFirst(branches.data).map((branch) => (
              <BranchRow
                key={branch._id}
                branch={branch}
                isMain={branch._id === site.mainBranch}
                release={branch.release ? (releaseNames.get(branch.release) ?? 'an older release') : undefined}
              />
            ))}
          </Paper>
        </>
      )}
      {canManage && <AddBranchModal siteId={site._id} opened={opened} onClose={close} />}
    </Stack>
  );
}
