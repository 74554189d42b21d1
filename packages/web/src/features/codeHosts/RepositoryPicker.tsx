import { Group, Select, Stack, Text } from '@mantine/core';
import type { CodeHost, CodeHostAccount, CodeHostRepository } from '@wharf/contract';
import { ApiError } from '../../lib/api.ts';
import { failureMessage } from '../../lib/notify.ts';
import { useProviderLook } from '../auth/useProviderLook.ts';
import { AllowAccessButton } from './AllowAccessButton.tsx';
import { useCodeHostAccounts, useCodeHostRepositories } from './codeHostQueries.ts';

export interface PickedRepository {
  provider: CodeHost;
  repository: CodeHostRepository;
}

/** The repositories of one account, searchable; or the way to let Wharf list them. */
function AccountRepositories({
  account,
  onPick,
}: {
  account: CodeHostAccount;
  onPick: (picked: PickedRepository) => void;
}) {
  const look = useProviderLook()(account.provider);
  const listed = useCodeHostRepositories(account.provider, account.repositoryAccess);
  const accessGone = listed.error instanceof ApiError && listed.error.code === 'REPOSITORY_ACCESS_MISSING';
  if (!account.repositoryAccess || accessGone) return <AllowAccessButton provider={account.provider} />;
  const repositories = listed.data?.repositories ?? [];
  return (
    <Select
      label={`${look.label} repository`}
      description={
        listed.data?.truncated
          ? `Your ${repositories.length} last pushed repositories at ${look.label}`
          : `Repositories your ${look.label} account ${account.login ?? ''} may read`
      }
      placeholder={listed.isPending ? 'Listing…' : 'Search by name'}
      searchable
      nothingFoundMessage="No repository by that name"
      error={listed.error && !accessGone ? failureMessage('list repositories', listed.error) : undefined}
      disabled={listed.isPending}
      data={repositories.map((repository) => ({
        value: repository.fullName,
        label: repository.private ? `${repository.fullName} (private)` : repository.fullName,
      }))}
      onChange={(fullName) => {
        const repository = repositories.find((candidate) => candidate.fullName === fullName);
        if (repository) onPick({ provider: account.provider, repository });
      }}
      style={{ flex: 1, minWidth: 240 }}
    />
  );
}

/**
 * "From your account": for each code host this installation signs in with, the repositories of
 * the user's account there to pick from (filling the URL and the production branch), or the
 * button that lets Wharf list them. Nothing when no code host is configured.
 */
export function RepositoryPicker({ onPick }: { onPick: (picked: PickedRepository) => void }) {
  const accounts = useCodeHostAccounts();
  if (!accounts.data?.length) return null;
  return (
    <Stack gap="xs">
      <Text size="sm" fw={500}>
        From your account
      </Text>
      <Group gap="sm" align="flex-end">
        {accounts.data.map((account) => (
          <AccountRepositories key={account.provider} account={account} onPick={onPick} />
        ))}
      </Group>
      <Text size="xs" c="dimmed">
        Or give any repository’s address below.
      </Text>
    </Stack>
  );
}
