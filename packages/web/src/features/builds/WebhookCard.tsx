import { Button, Card, Code, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type Repository, type Site } from '@wharf/contract';
import { ConfirmModal } from '../../components/ConfirmModal.tsx';
import { CopyAction } from '../../components/CopyAction.tsx';
import { SecretValue } from '../../components/SecretValue.tsx';
import { apiQuery, call } from '../../lib/api.ts';
import { notifyFailure, notifySuccess } from '../../lib/notify.ts';

/** Settings › Repository: where the forge sends pushes and pull requests, and the secret it signs them with. */
export function WebhookCard({ site, repository }: { site: Site; repository: Repository }) {
  const client = useQueryClient();
  const secretQuery = apiQuery(api.getWebhookSecret, { params: { siteId: site._id } });
  const secret = useQuery(secretQuery);
  const [replacing, replace] = useDisclosure(false);
  const renew = useMutation({
    mutationFn: () => call(api.renewWebhookSecret, { params: { siteId: site._id } }),
    onSuccess: (renewed) => {
      client.setQueryData(secretQuery.queryKey, renewed);
      replace.close();
      notifySuccess('Webhook secret replaced: give the forge the new one');
    },
    onError: (error) => notifyFailure('replace webhook secret', error),
  });
  return (
    <Card>
      <Stack gap="sm">
        <Title order={2} size="h4">
          Webhook
        </Title>
        <Text size="sm" c="dimmed">
          Add a webhook to the repository so every push builds, and every pull or merge request gets a preview at{' '}
          <code>pr-{'{number}'}</code> that goes once it is closed (GitHub: Settings › Webhooks, content type
          application/json, events Pushes and Pull requests; GitLab: Settings › Webhooks, the secret as its secret
          token, Push and Merge request events; Gitea and Forgejo: Settings › Webhooks, the secret as its secret).
          Commits whose message holds <code>[skip ci]</code> or <code>[wharf skip]</code> do not build.
        </Text>
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            Payload URL
          </Text>
          <Group gap="xs" wrap="nowrap" align="flex-start">
            <Code block aria-label="Webhook URL" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap', flex: 1 }}>
              {repository.webhookUrl}
            </Code>
            <CopyAction value={repository.webhookUrl} label="Copy the webhook URL" size="lg" />
          </Group>
        </Stack>
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            Secret
          </Text>
          {secret.data ? (
            <SecretValue value={secret.data.secret} label="Webhook secret" shown="blurred" />
          ) : (
            <Skeleton h={36} />
          )}
        </Stack>
        <Group justify="flex-end">
          <Button variant="default" onClick={replace.open}>
            Replace secret
          </Button>
        </Group>
      </Stack>
      <ConfirmModal
        opened={replacing}
        onClose={replace.close}
        title="Replace the webhook secret"
        confirmLabel="Replace secret"
        color="harbour"
        loading={renew.isPending}
        onConfirm={() => renew.mutate()}
      >
        Deliveries signed with the current secret are refused at once: pushes build again once the forge's webhook has
        the new one.
      </ConfirmModal>
    </Card>
  );
}
