import { ActionIcon, Button, Stack, Tooltip } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconKey, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type SiteToken } from '@wharf/contract';
import { useState } from 'react';
import { ConfirmModal } from '../../components/ConfirmModal.tsx';
import { ListRow, RowDetail } from '../../components/ListRow.tsx';
import { ListSection } from '../../components/ListSection.tsx';
import { SecretValue } from '../../components/SecretValue.tsx';
import { apiQuery, call } from '../../lib/api.ts';
import { newestFirst } from '../../lib/newestFirst.ts';
import { notifyFailure } from '../../lib/notify.ts';
import { exactTime, relativeTime } from '../../lib/time.ts';
import { AddSiteTokenModal } from './AddSiteTokenModal.tsx';

function TokenRow({ token, onDelete }: { token: SiteToken; onDelete: (token: SiteToken) => void }) {
  return (
    <ListRow
      label={`Token ${token.name}`}
      wrapActions
      title={token.name}
      details={
        <RowDetail title={exactTime(token.createdAt)} truncate={false}>
          Created {relativeTime(token.createdAt)}
        </RowDetail>
      }
      actions={
        <>
          <SecretValue value={token.value} label={`Value of ${token.name}`} shown="masked" />
          <Tooltip label="Delete" withArrow>
            <ActionIcon
              variant="subtle"
              color="red"
              onClick={() => onDelete(token)}
              aria-label={`Delete ${token.name}`}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Tooltip>
        </>
      }
    />
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
      <ListSection
        query={tokens}
        errorTitle="Could not list tokens"
        empty={{
          icon: <IconKey size={26} stroke={1.5} />,
          title: 'No tokens',
          description: 'A site token lets a CI job or a script upload releases to this site, and nothing else.',
        }}
        intro="Site tokens upload releases to this site, and nothing else."
        action={addButton}
      >
        {(items) =>
          newestFirst(items).map((token) => <TokenRow key={token._id} token={token} onDelete={setDeleting} />)
        }
      </ListSection>
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
