import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type CodeHostAccount, gitHostOf, isRepositoryOf, type Repository, type Site } from '@wharf/contract';
import { apiQuery, call } from '../../lib/api.ts';
import { notifyFailure, notifySuccess } from '../../lib/notify.ts';
import { useProviderLook } from '../auth/useProviderLook.ts';
import { AllowAccessButton } from './AllowAccessButton.tsx';
import { useCodeHostAccounts, useCodeHostRepositories } from './codeHostQueries.ts';

/** Sets the connected repository up at one code host with the user's account there: its deploy key and webhook. */
export function useForgeSetup(site: Site) {
  const client = useQueryClient();
  const query = apiQuery(api.getSiteRepository, { params: { siteId: site._id } });
  return useMutation({
    mutationFn: (body: { provider: CodeHostAccount['provider']; repository: string }) =>
      call(api.setUpRepositoryAtForge, { params: { siteId: site._id }, body }),
    onSuccess: (updated, { repository }) => {
      client.setQueryData(query.queryKey, updated);
      notifySuccess(`Deploy key and webhook added to ${repository}: a push there builds the site`);
    },
    onError: (error) => notifyFailure('set up repository at forge', error),
  });
}

/** One account's view of the connected repository: set it up there, or why it cannot be. */
function AccountSetup({ site, repository, account }: { site: Site; repository: Repository; account: CodeHostAccount }) {
  const look = useProviderLook()(account.provider);
  const listed = useCodeHostRepositories(account.provider, account.repositoryAccess);
  const setUp = useForgeSetup(site);
  if (!account.repositoryAccess)
    return <AllowAccessButton provider={account.provider} label={`Allow access at ${look.label}`} />;
  if (listed.isPending) return <Text size="sm">Looking for the repository at {look.label}…</Text>;
  const found = listed.data?.repositories.find((candidate) => isRepositoryOf(repository.url, candidate));
  if (!found)
    return (
      <Text size="sm" c="dimmed">
        Your {look.label} account {account.login} has no repository at {repository.url}.
      </Text>
    );
  return (
    <Group justify="space-between" gap="xs">
      <Text size="sm">
        <b>{found.fullName}</b> at {look.label}
        {found.canSetUp ? '' : ': your account may not add webhooks or deploy keys there'}
      </Text>
      <Button
        size="sm"
        disabled={!found.canSetUp}
        loading={setUp.isPending}
        onClick={() => setUp.mutate({ provider: account.provider, repository: found.fullName })}
      >
        Add deploy key and webhook
      </Button>
    </Group>
  );
}

/**
 * Settings › Repository: instead of pasting the deploy key and the webhook at the forge, Wharf
 * adds them with the user's account there (again after a key or secret is replaced: the replaced
 * key is removed, the hook brought up to date). Shown when this installation signs in with a code host.
 */
export function ForgeSetupCard({ site, repository }: { site: Site; repository: Repository }) {
  const accounts = useCodeHostAccounts();
  // Only the code hosts the repository can be on: the one whose address names its host.
  const host = gitHostOf(repository.url);
  const relevant = accounts.data?.filter((account) => gitHostOf(account.url) === host) ?? [];
  if (relevant.length === 0) return null;
  return (
    <Card>
      <Stack gap="sm">
        <Title order={2} size="h4">
          Set up at the code host
        </Title>
        <Text size="sm" c="dimmed">
          Wharf adds the deploy key (read-only) and the webhook to the repository with your account there; on GitHub,
          builds then report statuses and comments with it unless a forge token is set below (GitLab’s and Gitea’s
          account tokens expire: set a forge token there). Do it again after replacing the key (the replaced key is
          removed there) or the webhook secret.
        </Text>
        {relevant.map((account) => (
          <AccountSetup key={account.provider} site={site} repository={repository} account={account} />
        ))}
      </Stack>
    </Card>
  );
}
