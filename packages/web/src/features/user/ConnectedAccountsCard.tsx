import { Card, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@wharf/contract';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { RowList } from '../../components/ListRow.tsx';
import { apiQuery, call } from '../../lib/api.ts';
import { notifyFailure } from '../../lib/notify.ts';
import { ConnectAccountButtons } from './ConnectAccountButtons.tsx';
import { IdentityRow } from './IdentityRow.tsx';
import { LinkResult } from './LinkResult.tsx';

/** The accounts the user signs in with, each one disconnectable but the last, and more to connect. */
export function ConnectedAccountsCard() {
  const client = useQueryClient();
  const identities = useQuery(apiQuery(api.listIdentities));
  const unlink = useMutation({
    mutationFn: (identityId: string) => call(api.unlinkIdentity, { params: { identityId } }),
    onError: (error) => notifyFailure('disconnect account', error),
    // Either way the list shows what the server now holds.
    onSettled: () => client.invalidateQueries({ queryKey: [api.listIdentities.path] }),
  });
  const accounts = identities.data ?? [];
  return (
    <Card>
      <Stack gap="md">
        <Stack gap={4}>
          <Title order={2} size="h4">
            Connected accounts
          </Title>
          <Text size="sm" c="dimmed">
            You sign in to Wharf with any of these accounts.
          </Text>
        </Stack>
        <LinkResult />
        {identities.isPending && <Skeleton h={60} />}
        {identities.error && <ErrorPanel title="Could not list connected accounts" query={identities} />}
        {accounts.length > 0 && (
          <RowList aria-busy={identities.isFetching}>
            {accounts.map((identity) => (
              <IdentityRow
                key={identity._id}
                identity={identity}
                only={accounts.length === 1}
                busy={unlink.isPending && unlink.variables === identity._id}
                onDisconnect={() => unlink.mutate(identity._id)}
              />
            ))}
          </RowList>
        )}
        {identities.isSuccess && <ConnectAccountButtons connected={accounts.map((identity) => identity.provider)} />}
      </Stack>
    </Card>
  );
}
