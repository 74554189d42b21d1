import { Code, Group, Skeleton } from '@mantine/core';
import { uploadCommandOf, uploadWithNodeOf } from '@wharf/contract';
import { useSystemEnv } from '../lib/systemEnv.ts';
import { CopyAction } from './CopyAction.tsx';
import { ErrorPanel } from './ErrorPanel.tsx';

/** The two ways to run this installation's own CLI: npx fetching its package, or Node running its one file. */
const FORMS = {
  npx: { make: uploadCommandOf, label: 'Upload command', copy: 'Copy the upload command' },
  node: { make: uploadWithNodeOf, label: 'Upload command without npx', copy: 'Copy the upload command without npx' },
} as const;

/**
 * The upload command of a site, ready to copy (spec.md §9: the site id, a URL and a token). The
 * CLI comes from this installation (GET /system/env gives its URL), never from a registry name.
 */
export function UploadCommand({
  siteId,
  token,
  form = 'npx',
}: {
  siteId: string;
  token?: string;
  form?: keyof typeof FORMS;
}) {
  const env = useSystemEnv();
  if (env.error) return <ErrorPanel title="Could not load backend env" query={env} />;
  if (!env.data) return <Skeleton h={60} />;
  const { make, label, copy } = FORMS[form];
  const command = make(env.data.url, siteId, token);
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start" w="100%">
      <Code
        block
        aria-label={label}
        ta="left"
        style={{ flex: 1, minWidth: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
      >
        {command}
      </Code>
      <CopyAction value={command} label={copy} size="lg" />
    </Group>
  );
}
