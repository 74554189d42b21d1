import { Alert, Badge, Button, Card, Group, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, forgeTokenBody, type Repository, type Site } from '@wharf/contract';
import { apiQuery, call } from '../../lib/api.ts';
import { contractResolver } from '../../lib/form.ts';
import { notifyFailure, notifySuccess } from '../../lib/notify.ts';
import { relativeTime } from '../../lib/time.ts';

/**
 * Settings › Repository: the forge access token builds report with (commit statuses, one comment
 * per pull request with its preview), whether one is set, and why the last report failed.
 */
export function ForgeTokenCard({ site, repository }: { site: Site; repository: Repository }) {
  const client = useQueryClient();
  const query = apiQuery(api.getSiteRepository, { params: { siteId: site._id } });
  const form = useForm({ initialValues: { token: '' }, validate: contractResolver(forgeTokenBody) });
  const saved = (message: string) => (updated: Repository) => {
    client.setQueryData(query.queryKey, updated);
    form.reset();
    notifySuccess(message);
  };
  const save = useMutation({
    mutationFn: (token: string) => call(api.setForgeToken, { params: { siteId: site._id }, body: { token } }),
    onSuccess: saved('Forge token saved: builds report to the forge'),
    onError: (error) => notifyFailure('save forge token', error),
  });
  const remove = useMutation({
    mutationFn: () => call(api.deleteForgeToken, { params: { siteId: site._id } }),
    onSuccess: saved('Forge token removed'),
    onError: (error) => notifyFailure('remove forge token', error),
  });
  return (
    <Card>
      <form onSubmit={form.onSubmit(({ token }) => save.mutate(token))} noValidate>
        <Stack gap="sm">
          <Group justify="space-between" gap="xs">
            <Title order={2} size="h4">
              Statuses and comments
            </Title>
            <Badge color={repository.forgeToken ? 'teal' : 'gray'} variant="light">
              {repository.forgeToken ? 'Token set' : 'No token'}
            </Badge>
          </Group>
          <Text size="sm" c="dimmed">
            With an access token of the forge, builds queued by its webhook set the commit’s status, and each pull
            request gets one comment with its preview’s address, updated after every build. GitHub: a fine-grained token
            with Commit statuses and Pull requests (write); GitLab: a project access token with the api scope; Gitea and
            Forgejo: write:repository and write:issue. Wharf keeps it sealed and never shows it again.
          </Text>
          {repository.reportError && (
            <Alert color="red" title="The last report failed">
              {repository.reportError.message} ({relativeTime(repository.reportError.at)})
            </Alert>
          )}
          <PasswordInput
            label={repository.forgeToken ? 'Replace the token' : 'Access token'}
            autoComplete="off"
            {...form.getInputProps('token')}
          />
          <Group justify="flex-end" gap="xs">
            {repository.forgeToken && (
              <Button color="red" variant="light" loading={remove.isPending} onClick={() => remove.mutate()}>
                Remove token
              </Button>
            )}
            <Button type="submit" loading={save.isPending}>
              Save token
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
