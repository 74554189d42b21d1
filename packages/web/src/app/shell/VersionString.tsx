import { Button, CopyButton, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { COPY_CONFIRMATION_MS, UI_VERSION } from '@wharf/contract';
import { useSystemInfo } from '../../lib/systemEnv.ts';

/** spec.md §2 footer: 'UI version / API version', copyable; the confirmation hides after 2000 ms. */
export function VersionString() {
  const apiVersion = useSystemInfo().data?.version ?? '…';
  const text = `UI ${UI_VERSION} / API ${apiVersion}`;
  return (
    <CopyButton value={text} timeout={COPY_CONFIRMATION_MS}>
      {({ copied, copy }) => (
        <Tooltip label={copied ? 'Copied' : 'Copy the version'} withArrow opened={copied || undefined}>
          <Button
            variant="subtle"
            color={copied ? 'teal' : 'gray'}
            size="compact-xs"
            onClick={copy}
            rightSection={copied ? <IconCheck size={12} /> : <IconCopy size={12} />}
            aria-label={`Copy the version: ${text}`}
            ff="monospace"
            fw={400}
          >
            {text}
          </Button>
        </Tooltip>
      )}
    </CopyButton>
  );
}
