import { Badge, Button, Group, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { IconArrowBackUp, IconPackage, IconRocket } from '@tabler/icons-react';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Release } from '@wharf/contract';
import { useEffect, useState } from 'react';
import { ConfirmModal } from '../../components/ConfirmModal.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import classes from '../../components/ListRow.module.css';
import { LoadMore } from '../../components/LoadMore.tsx';
import { call } from '../../lib/api.ts';
import { notifyFailure } from '../../lib/notify.ts';
import { ReleaseRow } from '../releases/ReleaseRow.tsx';
import { releasesQuery } from '../releases/releasesQuery.ts';
import type { BranchDetail } from './branchQuery.ts';

/** Whether pointing the branch at this release goes back in time. */
const isRollBack = (release: Release, current: Release | null) => current !== null && release.date < current.date;

/**
 * The releases tab of a branch: every release of the site, the one it serves marked 'current', and
 * any other one to point it at after confirmation (spec.md §4 'Branch release').
 */
export function BranchReleasesTab({ branch, canManage }: { branch: BranchDetail; canManage: boolean }) {
  const client = useQueryClient();
  const [target, setTarget] = useState<Release | null>(null);
  const releases = useInfiniteQuery(releasesQuery(branch.siteId));
  const setRelease = useMutation({
    mutationFn: (release: Release) =>
      call(api.setBranchRelease, {
        params: { siteId: branch.siteId, branchId: branch._id },
        body: { release: release._id },
      }),
    onSuccess: async () => {
      setTarget(null);
      await Promise.all(
        [api.getBranch, api.listBranches, api.listReleases, api.getSite].map((route) =>
          client.invalidateQueries({ queryKey: [route.path] }),
        ),
      );
    },
    onError: (error) => notifyFailure('set branch release', error),
  });
  useEffect(() => {
    if (releases.error) notifyFailure('list releases', releases.error);
  }, [releases.error]);

  if (releases.error) return <ErrorPanel title="Could not list releases" query={releases} />;
  if (!releases.data) return <Skeleton h={160} />;
  const items = releases.data.pages.flatMap((page) => page.items);
  if (items.length === 0)
    return (
      <EmptyState
        icon={<IconPackage size={26} stroke={1.5} />}
        title="No releases"
        description="Upload a release to the site: the branch can then serve it."
      />
    );
  const back = target ? isRollBack(target, branch.currentRelease) : false;
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        The branch serves one release at a time; pointing it at another is instant, and can be undone the same way.
      </Text>
      <Paper withBorder className={classes.list}>
        {items.map((release) => {
          const current = release._id === branch.release;
          const rollBack = isRollBack(release, branch.currentRelease);
          return (
            <ReleaseRow
              key={release._id}
              release={release}
              badges={
                current && (
                  <Badge size="sm" color="teal" variant="filled">
                    current
                  </Badge>
                )
              }
              actions={
                canManage &&
                !current && (
                  <Button
                    size="xs"
                    variant="light"
                    leftSection={rollBack ? <IconArrowBackUp size={14} /> : <IconRocket size={14} />}
                    onClick={() => setTarget(release)}
                    aria-label={`${rollBack ? 'Roll back' : 'Deploy'} to ${release.name}`}
                  >
                    {rollBack ? 'Roll back' : 'Deploy'}
                  </Button>
                )
              }
            />
          );
        })}
      </Paper>
      {releases.hasNextPage && (
        <Group justify="center">
          <LoadMore list={releases} />
        </Group>
      )}
      <ConfirmModal
        opened={target !== null}
        onClose={() => setTarget(null)}
        title={back ? 'Roll back' : 'Deploy release'}
        confirmLabel={back ? 'Roll back' : 'Deploy'}
        color={back ? 'orange' : 'harbour'}
        onConfirm={() => target && setRelease.mutate(target)}
        loading={setRelease.isPending}
      >
        Point <b>{branch.name}</b> at <b>{target?.name}</b>? {branch.url} serves it at once.
      </ConfirmModal>
    </Stack>
  );
}
