import { Button, Group, Modal, Radio, Skeleton, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type Site } from '@wharf/contract';
import { useState } from 'react';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { apiQuery, call } from '../../lib/api.ts';
import { notifyFailure, notifySuccess } from '../../lib/notify.ts';
import { relativeTime } from '../../lib/time.ts';

/** The releases the main branch served before, newest first: those a roll back can return to. */
const EARLIER = 10;

/**
 * From the site's header: points the main branch back at a release it served before, at once, as
 * an upload points it forward (the release's own page does the same for any release and branch).
 */
export function RollBackModal({ site, onClose }: { site: Site; onClose: () => void }) {
  const client = useQueryClient();
  const history = useQuery(
    apiQuery(api.listReleases, {
      params: { siteId: site._id },
      query: { branch: site.mainBranch, page: 0, size: EARLIER + 1 },
    }),
  );
  const earlier = (history.data?.items ?? []).filter((release) => release._id !== site.live?._id).slice(0, EARLIER);
  const [chosen, setChosen] = useState<string | null>(null);
  const target = chosen ?? earlier[0]?._id ?? null;
  const rollBack = useMutation({
    mutationFn: (releaseId: string) =>
      call(api.setBranchRelease, {
        params: { siteId: site._id, branchId: site.mainBranch },
        body: { release: releaseId },
      }),
    onSuccess: async () => {
      onClose();
      notifySuccess('The main branch serves the release you chose');
      await Promise.all(
        [api.getSite, api.listReleases, api.getRelease, api.listBranches, api.getBranch, api.listOrgSites].map(
          (route) => client.invalidateQueries({ queryKey: [route.path] }),
        ),
      );
    },
    onError: (error) => notifyFailure('set branch release', error),
  });
  return (
    <Modal opened onClose={onClose} title="Roll back the main branch">
      <Stack>
        {history.error && <ErrorPanel title="Could not list releases" query={history} />}
        {history.isPending && <Skeleton h={120} />}
        {history.isSuccess && earlier.length === 0 && (
          <Text size="sm" c="dimmed">
            The main branch has served no other release yet.
          </Text>
        )}
        {earlier.length > 0 && (
          <Radio.Group label="Serve again" value={target} onChange={setChosen}>
            <Stack gap="xs" mt="xs">
              {earlier.map((release) => (
                <Radio
                  key={release._id}
                  value={release._id}
                  label={release.name}
                  description={`${relativeTime(release.date)}${release.source.commit ? ` · ${release.source.commit.slice(0, 7)}` : ''}`}
                />
              ))}
            </Stack>
          </Radio.Group>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            color="orange"
            disabled={target === null}
            loading={rollBack.isPending}
            onClick={() => target && rollBack.mutate(target)}
          >
            Roll back
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
