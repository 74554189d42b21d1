import { Code, Group, Skeleton } from '@mantine/core';
import { useSystemEnv } from '../lib/systemEnv.ts';
import { CopyAction } from './CopyAction.tsx';
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
      <CopyAction value={command} label="Copy the upload command" size="lg" />
    </Group>
  );
}
