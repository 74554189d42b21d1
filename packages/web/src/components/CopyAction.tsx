import { ActionIcon, type ActionIconProps, CopyButton, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { COPY_CONFIRMATION_MS } from '@wharf/contract';

const iconSizes = { sm: 14, md: 16, lg: 18 } as const;

/** The copy icon beside a value: 'Copy' on hover, 'Copied' and a check for a moment once copied. */
export function CopyAction({
  value,
  label,
  size = 'md',
  iconSize = iconSizes[size],
  variant = 'light',
  color,
}: {
  value: string;
  /** What the button copies, for those who cannot see it: 'Copy the site ID'. */
  label: string;
  size?: keyof typeof iconSizes;
  iconSize?: number;
  variant?: ActionIconProps['variant'];
  /** The color while nothing is copied yet; teal confirms the copy. */
  color?: string;
}) {
  return (
    <CopyButton value={value} timeout={COPY_CONFIRMATION_MS}>
      {({ copied, copy }) => (
        <Tooltip label={copied ? 'Copied' : 'Copy'} withArrow opened={copied || undefined}>
          <ActionIcon variant={variant} size={size} color={copied ? 'teal' : color} onClick={copy} aria-label={label}>
            {copied ? <IconCheck size={iconSize} /> : <IconCopy size={iconSize} />}
          </ActionIcon>
        </Tooltip>
      )}
    </CopyButton>
  );
}
