import { ActionIcon, Code, CopyButton, Group, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { COPY_CONFIRMATION_MS } from '@wharf/contract';

/** A token's value, masked unless revealed, with a copy action whose confirmation lasts 2 s. */
export function SecretValue({ value, label, revealed = false }: { value: string; label: string; revealed?: boolean }) {
  return (
    <Group gap="xs" wrap="nowrap" miw={0}>
      <Code fz="xs" px="sm" py={6} aria-label={label} style={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
        {revealed ? value : `${value.slice(0, 11)}${'•'.repeat(12)}${value.slice(-4)}`}
      </Code>
      <CopyButton value={value} timeout={COPY_CONFIRMATION_MS}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? 'Copied' : 'Copy'} withArrow opened={copied || undefined}>
            <ActionIcon
              variant="light"
              color={copied ? 'teal' : undefined}
              onClick={copy}
              aria-label={`Copy ${label.charAt(0).toLowerCase()}${label.slice(1)}`}
            >
              {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}
