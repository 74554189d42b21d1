import {
  ActionIcon,
  Anchor,
  Code,
  CopyButton,
  Group,
  List,
  Modal,
  Skeleton,
  Stack,
  Text,
  Tooltip,
} from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { COPY_CONFIRMATION_MS } from '@wharf/contract';
import { Link } from 'react-router';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useSystemEnv } from '../telemetry/systemEnv.ts';

/** The exact upload command of this site, with this installation's URL and a placeholder for the token. */
export function uploadCommand(siteId: string, url: string): string {
  return `npx wharf upload ./dist --url ${url} --site ${siteId} --token <token>`;
}

/** 'How to upload': the command-line upload of a built site, and where its token comes from. */
export function HowToUploadModal({
  siteId,
  opened,
  onClose,
  canManage,
}: {
  siteId: string;
  opened: boolean;
  onClose: () => void;
  canManage: boolean;
}) {
  const env = useSystemEnv();
  const command = env.data ? uploadCommand(siteId, env.data.url) : '';
  return (
    <Modal opened={opened} onClose={onClose} title="How to upload" size="lg">
      <Stack>
        <Text size="sm">
          Build your site, then upload the folder it was built into (here <Code>./dist</Code>) from your machine or a CI
          job. The release is served by the main branch as soon as the upload ends.
        </Text>
        {env.error && <ErrorPanel title="Could not load backend env" query={env} />}
        {env.isPending && <Skeleton h={60} />}
        {env.data && (
          <Group gap="xs" wrap="nowrap" align="flex-start">
            <Code block aria-label="Upload command" style={{ flex: 1, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
              {command}
            </Code>
            <CopyButton value={command} timeout={COPY_CONFIRMATION_MS}>
              {({ copied, copy }) => (
                <Tooltip label={copied ? 'Copied' : 'Copy'} withArrow opened={copied || undefined}>
                  <ActionIcon
                    variant="light"
                    size="lg"
                    color={copied ? 'teal' : undefined}
                    onClick={copy}
                    aria-label="Copy the upload command"
                  >
                    {copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
                  </ActionIcon>
                </Tooltip>
              )}
            </CopyButton>
          </Group>
        )}
        <Text size="sm" fw={600}>
          Replace {'<token>'} with a token
        </Text>
        <List size="sm" spacing={4}>
          <List.Item>
            A site token uploads to this site only:{' '}
            {canManage ? (
              <Anchor component={Link} to={`/sites/${siteId}/tokens`} onClick={onClose} size="sm">
                create one in the Tokens tab
              </Anchor>
            ) : (
              'ask a member of the team to create one in the Tokens tab'
            )}{' '}
            with Add token, then copy its value.
          </List.Item>
          <List.Item>
            Or an{' '}
            <Anchor component={Link} to="/user/api-tokens/add" onClick={onClose} size="sm">
              API token
            </Anchor>{' '}
            of yours with the release_create scope.
          </List.Item>
        </List>
      </Stack>
    </Modal>
  );
}
