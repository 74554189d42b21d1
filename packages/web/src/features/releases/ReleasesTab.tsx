import { Badge, Button, Group, Loader, Paper, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconPackage, IconSearch, IconTerminal2 } from '@tabler/icons-react';
import { keepPreviousData, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, messages, type Release, type Site } from '@wharf/contract';
import { useEffect, useState } from 'react';
import { ConfirmModal } from '../../components/ConfirmModal.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import classes from '../../components/ListRow.module.css';
import { PageFooter } from '../../components/LoadMore.tsx';
import { UploadCommand } from '../../components/UploadCommand.tsx';
import { call } from '../../lib/api.ts';
import { notifyFailure } from '../../lib/notify.ts';
import { useSearchTerm } from '../../lib/useSearchTerm.ts';
import { FailedDeploys } from './FailedDeploys.tsx';
import { HowToUploadModal } from './HowToUploadModal.tsx';
import { ReleaseRow } from './ReleaseRow.tsx';
import { RenameReleaseModal } from './RenameReleaseModal.tsx';
import { releasesQuery } from './releasesQuery.ts';

/** The Releases tab of a site: searchable, newest first, with the upload instructions, rename and delete. */
export function ReleasesTab({ site, canManage }: { site: Site; canManage: boolean }) {
  const client = useQueryClient();
  const [input, setInput] = useState('');
  const { term, tooShort } = useSearchTerm(input);
  const [howTo, { open, close }] = useDisclosure(false);
  const [renaming, setRenaming] = useState<Release | null>(null);
  const [deleting, setDeleting] = useState<Release | null>(null);
  const releases = useInfiniteQuery({ ...releasesQuery(site._id, term), placeholderData: keepPreviousData });
  const remove = useMutation({
    mutationFn: (release: Release) => call(api.deleteRelease, { params: { releaseId: release._id } }),
    onSuccess: async () => {
      setDeleting(null);
      await client.invalidateQueries({ queryKey: [api.listReleases.path] });
    },
    onError: (error) => notifyFailure('delete releases', error),
  });
  useEffect(() => {
    if (releases.error) notifyFailure('list releases', releases.error);
  }, [releases.error]);

  const items = releases.data?.pages.flatMap((page) => page.items) ?? [];
  const total = releases.data?.pages[0]?.count ?? 0;
  const howToButton = (
    <Button
      variant={items.length === 0 ? 'filled' : 'default'}
      leftSection={<IconTerminal2 size={16} />}
      onClick={open}
    >
      How to upload
    </Button>
  );
  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <TextInput
          label="Search releases"
          placeholder="Release name"
          leftSection={<IconSearch size={16} />}
          rightSection={releases.isFetching && !releases.isFetchingNextPage ? <Loader size={14} /> : null}
          value={input}
          onChange={(event) => setInput(event.currentTarget.value)}
          description={tooShort ? messages.searchMinLength : undefined}
          style={{ flex: '1 1 240px' }}
          maw={420}
        />
        {howToButton}
      </Group>
      <FailedDeploys siteId={site._id} />
      {releases.isPending && <Skeleton h={160} />}
      {releases.error && <ErrorPanel title="Could not list releases" query={releases} />}
      {releases.isSuccess && items.length === 0 && term && (
        <Text size="sm" c="dimmed">
          No results
        </Text>
      )}
      {releases.isSuccess && items.length === 0 && !term && (
        <EmptyState
          icon={<IconPackage size={26} stroke={1.5} />}
          title="No releases"
          description="Upload a build of the site from your machine or CI with this Wharf's command-line tool:"
          action={
            <Stack gap="sm" align="center" w="100%" maw={640}>
              <UploadCommand siteId={site._id} />
              {howToButton}
            </Stack>
          }
        />
      )}
      {items.length > 0 && (
        <Paper withBorder className={classes.list} aria-busy={releases.isFetching}>
          {items.map((release) => (
            <ReleaseRow
              key={release._id}
              release={release}
              badges={release.branches.map((branch) => (
                <Badge
                  key={branch._id}
                  size="sm"
                  variant="light"
                  tt="none"
                  color={branch._id === site.mainBranch ? 'harbour' : 'gray'}
                >
                  {branch.name}
                </Badge>
              ))}
              onRename={canManage ? setRenaming : undefined}
              onDelete={canManage ? setDeleting : undefined}
            />
          ))}
        </Paper>
      )}
      {(releases.hasNextPage || total > 0) && (
        <PageFooter list={releases} shown={items.length} total={total} noun="release" />
      )}
      <HowToUploadModal siteId={site._id} opened={howTo} onClose={close} canManage={canManage} />
      {renaming && <RenameReleaseModal release={renaming} onClose={() => setRenaming(null)} />}
      <ConfirmModal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title="Delete release"
        confirmLabel="Delete release"
        onConfirm={() => deleting && remove.mutate(deleting)}
        loading={remove.isPending}
      >
        Delete <b>{deleting?.name}</b>? Branches can no longer be rolled back to it. A release that a branch serves
        cannot be deleted.
      </ConfirmModal>
    </Stack>
  );
}
