import { Button, Card, Code, Group, Stack, Text, Title, Tooltip } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { api, type Site } from '@wharf/contract';
import { PasswordProtection } from '../../components/PasswordProtection.tsx';
import { UrlLink } from '../../components/UrlLink.tsx';
import { call } from '../../lib/api.ts';
import { exactTime } from '../../lib/time.ts';
import { type BranchDetail, branchQuery } from './branchQuery.ts';
import { DeleteBranchModal } from './DeleteBranchModal.tsx';

/** The settings tab of a branch: its address, its password, and deleting it. */
export function BranchSettingsTab({ branch, site }: { branch: BranchDetail; site: Site }) {
  const client = useQueryClient();
  const [deleting, { open, close }] = useDisclosure(false);
  const params = { siteId: branch.siteId, branchId: branch._id };
  const store = (saved: Omit<BranchDetail, 'currentRelease'>) => {
    client.setQueryData(branchQuery(branch.siteId, branch._id).queryKey, { ...branch, ...saved });
    return client.invalidateQueries({ queryKey: [api.listBranches.path] });
  };
  const isMain = branch._id === site.mainBranch;
  return (
    <Stack gap="lg">
      <Card>
        <Stack gap="xs">
          <Title order={2} size="h4">
            Address
          </Title>
          <Text size="sm">
            Served at <UrlLink url={branch.url} />
            {isMain && ' and at the site’s own address'}
          </Text>
          <Text size="xs" c="dimmed">
            Slug <Code>{branch.slug}</Code> · created {exactTime(branch.createdAt)}
          </Text>
        </Stack>
      </Card>
      <PasswordProtection
        subject="branch"
        hasPassword={branch.hasPassword}
        set={(password) => call(api.setBranchPassword, { params, body: { password } }).then(store)}
        remove={() => call(api.removeBranchPassword, { params }).then(store)}
        failures={{ set: 'set branch password', remove: 'remove branch password' }}
      />
      <Card style={{ borderColor: 'var(--mantine-color-red-outline)' }}>
        <Group justify="space-between" gap="md">
          <Stack gap={4} maw={520}>
            <Title order={2} size="h4" c="red">
              Danger zone
            </Title>
            <Text size="sm" c="dimmed">
              {isMain
                ? 'The main branch cannot be deleted: make another branch main in the site settings first.'
                : 'Deleting the branch stops its address; the releases stay with the site.'}
            </Text>
          </Stack>
          <Tooltip label="The main branch cannot be deleted" disabled={!isMain} withArrow>
            <Button color="red" leftSection={<IconTrash size={16} />} onClick={open} disabled={isMain}>
              Delete branch
            </Button>
          </Tooltip>
        </Group>
      </Card>
      <DeleteBranchModal branch={branch} opened={deleting} onClose={close} />
    </Stack>
  );
}
