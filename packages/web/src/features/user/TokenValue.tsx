import { ActionIcon, Code, CopyButton, Group, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { COPY_CONFIRMATION_MS } from '@wharf/contract';
import classes from './TokenValue.module.css';

/** A secret shown blurred until pointed at or focused, and copyable. */
export function TokenValue({ value }: { value: string }) {
  return (
    <Group gap="xs" wrap="nowrap">
      <Code className={classes.value} tabIndex={0} aria-label="Token value" block>
        {value}
      </Code>
      <CopyButton value={value} timeout={COPY_CONFIRMATION_MS}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? 'Copied' : 'Copy'} withArrow opened={copied || undefined}>
            <ActionIcon
              variant="light"
              color={copied ? 'teal' : undefined}
              size="lg"
              onClick={copy}
              aria-label="Copy the token value"
            >
              {copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}
