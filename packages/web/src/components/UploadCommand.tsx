import { ActionIcon, Code, CopyButton, Group, Skeleton, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { COPY_CONFIRMATION_MS } from '@wharf/contract';
import { useSystemEnv } from '../lib/systemEnv.ts';
import { ErrorPanel } from './ErrorPanel.tsx';

/** The exact upload command of a site with this installation's URL, and the token when it is known. */
export function uploadCommand(siteId: string, url: string, token = '<token>'): string {
  return `npx wharf upload ./dist --url ${url} --site ${siteId} --token ${token}`;
}

/** The upload command of a site, ready to copy (spec.md §9: the site id, a URL and a token). */
export function UploadCommand({ siteId, token }: { siteId: string; token?: string }) {
  const env = useSystemEnv();
  if (env.error) return <ErrorPanel title="Could not load backend env" query={env} />;
  if (!env.data) return <Skeleton h={60} />;
  const command = uploadCommand(siteId, env.data.url, token);
  return (
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
  );
}
