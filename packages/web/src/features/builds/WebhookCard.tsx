import { Card, Code, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api, type Repository, type Site } from '@wharf/contract';
import { CopyAction } from '../../components/CopyAction.tsx';
import { SecretValue } from '../../components/SecretValue.tsx';
import { apiQuery } from '../../lib/api.ts';

/** Settings › Repository: where the forge sends pushes and pull requests, and the secret it signs them with. */
export function WebhookCard({ site, repository }: { site: Site; repository: Repository }) {
  const secret = useQuery(apiQuery(api.getWebhookSecret, { params: { siteId: site._id } }));
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
      </Stack>
    </Card>
  );
}
