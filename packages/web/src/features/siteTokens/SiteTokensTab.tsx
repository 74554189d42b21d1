import { ActionIcon, Button, Group, Paper, Skeleton, Stack, Text, Tooltip } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconKey, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type SiteToken } from '@wharf/contract';
import { useState } from 'react';
import { ConfirmModal } from '../../components/ConfirmModal.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import classes from '../../components/ListRow.module.css';
import { apiQuery, call } from '../../lib/api.ts';
import { newestFirst } from '../../lib/newestFirst.ts';
import { notifyFailure } from '../../lib/notify.ts';
import { exactTime, relativeTime } from '../../lib/time.ts';
import { AddSiteTokenModal } from './AddSiteTokenModal.tsx';
import { SecretValue } from './SecretValue.tsx';

function TokenRow({ token, onDelete }: { token: SiteToken; onDelete: (token: SiteToken) => void }) {
  return (
    <Group className={classes.row} justify="space-between" wrap="wrap" gap="sm" aria-label={`Token ${token.name}`}>
      <Stack gap={0} miw={0} style={{ flex: '1 1 180px' }}>
        <Text fw={600} truncate>
          {token.name}
        </Text>
        <Text size="xs" c="dimmed" title={exactTime(token.createdAt)}>
          Created {relativeTime(token.createdAt)}
        </Text>
      </Stack>
      <Group gap="xs" wrap="nowrap" style={{ flex: '1 1 240px' }} justify="flex-end">
        <SecretValue value={token.value} label={`Value of ${token.name}`} />
        <Tooltip label="Delete" withArrow>
          <ActionIcon variant="subtle" color="red" onClick={() => onDelete(token)} aria-label={`Delete ${token.name}`}>
            <IconTrash size={16} />
          </ActionIcon>
        </Tooltip>
      </Group>
    </Group>
  );
}

/** The Tokens tab of a site: upload tokens, newest first; add, copy, delete after confirmation. */
export function SiteTokensTab({ siteId }: { siteId: string }) {
  const client = useQueryClient();
  const [adding, { open, close }] = useDisclosure(false);
  const [deleting, setDeleting] = useState<SiteToken | null>(null);
  const tokens = useQuery(apiQuery(api.listSiteTokens, { params: { siteId } }));
  const remove = useMutation({
    mutationFn: (token: SiteToken) => call(api.deleteSiteToken, { params: { siteId, tokenId: token._id } }),
    onSuccess: async () => {
      setDeleting(null);
      await client.invalidateQueries({ queryKey: [api.listSiteTokens.path] });
    },
    onError: (error) => notifyFailure('delete tokens', error),
  });

  const addButton = (
    <Button leftSection={<IconPlus size={16} />} onClick={open}>
      Add token
    </Button>
  );
  return (
    <Stack>
      {tokens.error && <ErrorPanel title="Could not list tokens" query={tokens} />}
      {tokens.isPending && <Skeleton h={120} />}
      {tokens.data?.length === 0 && (
        <EmptyState
          icon={<IconKey size={26} stroke={1.5} />}
          title="No tokens"
          description="A site token lets a CI job or a script upload releases to this site, and nothing else."
          action={addButton}
        />
      )}
      {tokens.data && tokens.data.length > 0 && (
        <>
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              Site tokens upload releases to this site, and nothing else.
            </Text>
            {addButton}
          </Group>
          <Paper withBorder className={classes.list}>
            {newestFirst(tokens.data).map((token) => (
              <TokenRow key={token._id} token={token} onDelete={setDeleting} />
            ))}
          </Paper>
        </>
      )}
      <AddSiteTokenModal siteId={siteId} opened={adding} onClose={close} />
      <ConfirmModal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title="Delete token"
        confirmLabel="Delete token"
        onConfirm={() => deleting && remove.mutate(deleting)}
        loading={remove.isPending}
      >
        Delete <b>{deleting?.name}</b>? Uploads that use it fail from now on. This cannot be undone.
      </ConfirmModal>
    </Stack>
  );
}
