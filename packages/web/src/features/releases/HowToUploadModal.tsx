import { Anchor, Code, List, Modal, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { UploadCommand } from '../../components/UploadCommand.tsx';

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
  return (
    <Modal opened={opened} onClose={onClose} title="How to upload" size="lg">
      <Stack>
        <Text size="sm">
          Build your site, then upload the folder it was built into (here <Code>./dist</Code>) from your machine or a CI
          job. The release is served by the main branch as soon as the upload ends.
        </Text>
        <UploadCommand siteId={siteId} />
        <Text size="sm">
          The command comes from this Wharf, in its own version: npx fetches it from here. Without npm, download its one
          file and run it with Node (20 or newer):
        </Text>
        <UploadCommand siteId={siteId} form="node" />
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
