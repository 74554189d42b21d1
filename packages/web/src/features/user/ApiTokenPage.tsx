import { Card, Group, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@wharf/contract';
import { useParams } from 'react-router';
import { BackLink } from '../../components/BackLink.tsx';
import { DetailPage } from '../../components/DetailPage.tsx';
import { SecretValue } from '../../components/SecretValue.tsx';
import { apiQuery, call } from '../../lib/api.ts';
import { notifyFailure } from '../../lib/notify.ts';
import { exactTime, relativeTime } from '../../lib/time.ts';
import { ApiTokenForm, type ApiTokenValues, fromIso, toIso } from './ApiTokenForm.tsx';
import { DeleteApiTokenButton } from './DeleteApiTokenButton.tsx';
import { TokenTimingBadge } from './TokenTimingBadge.tsx';

/** /user/api-tokens/{apiTokenId}: the value, the timing, the edit form and delete. */
export function ApiTokenPage() {
  const { apiTokenId = '' } = useParams();
  const client = useQueryClient();
  const token = useQuery(apiQuery(api.getApiToken, { params: { apiTokenId } }));
  const update = useMutation({
    mutationFn: (values: ApiTokenValues) =>
      call(api.updateApiToken, {
        params: { apiTokenId },
        body: {
          name: values.name,
          activatesAt: toIso(values.activatesAt) ?? new Date().toISOString(),
          expiresAt: toIso(values.expiresAt),
          scopes: values.scopes,
        },
      }),
    onSuccess: async (saved) => {
      client.setQueryData(apiQuery(api.getApiToken, { params: { apiTokenId } }).queryKey, saved);
      await client.invalidateQueries({ queryKey: [api.listApiTokens.path] });
    },
    onError: (error) => notifyFailure('update api token', error),
  });

  const back = <BackLink to="/user/api-tokens" label="API tokens" />;
  return (
    <DetailPage query={token} back={back} failure="Could not get api token" skeletonHeight={320}>
      {(data) => (
        <>
          <Stack gap="lg">
            <Card>
              <Stack gap="sm">
                <Group justify="space-between" align="flex-start">
                  <Stack gap={4} miw={0}>
                    <Title order={2} size="h3">
                      {data.name}
                    </Title>
                    <Group gap="sm">
                      <TokenTimingBadge token={data} />
                      <Text size="xs" c="dimmed" title={exactTime(data.createdAt)}>
                        Created {relativeTime(data.createdAt)}
                      </Text>
                    </Group>
                  </Stack>
                  <DeleteApiTokenButton token={data} />
                </Group>
                <Text size="sm" c="dimmed">
                  Send it as <code>Authorization: Bearer …</code>. Point at the value to reveal it.
                </Text>
                <SecretValue value={data.value} label="Token value" copyLabel="Copy the token value" shown="blurred" />
              </Stack>
            </Card>
            <ApiTokenForm
              key={data._id}
              initialValues={{
                name: data.name,
                activatesAt: fromIso(data.activatesAt),
                expiresAt: fromIso(data.expiresAt),
                scopes: data.scopes,
              }}
              submitLabel="Save"
              submitting={update.isPending}
              requireChange
              onSubmit={(values) =>
                update.mutateAsync(values).then(
                  () => true,
                  () => false,
                )
              }
            />
          </Stack>
        </>
      )}
    </DetailPage>
  );
}
