import { ActionIcon, Anchor, CopyButton, type MantineSize, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { COPY_CONFIRMATION_MS } from '@wharf/contract';
import classes from './UrlLink.module.css';

/**
 * An address of a site or branch: a link that opens it, cut with an ellipsis where space runs out,
 * and a copy action. Clicks and keys stay here, so it can sit inside a clickable row.
 */
export function UrlLink({ url, label, size = 'sm' }: { url: string; label?: string; size?: MantineSize }) {
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: it only keeps its children's events from the row around it
    <span
      className={classes.root}
      onClick={(event) => event.stopPropagation()}
      onKeyDown={(event) => event.stopPropagation()}
    >
      <Anchor
        href={url}
        target="_blank"
        rel="noopener noreferrer"
        size={size}
        className={classes.url}
        title={url}
        aria-label={label}
      >
        {url}
      </Anchor>
      <CopyButton value={url} timeout={COPY_CONFIRMATION_MS}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? 'Copied' : 'Copy'} withArrow opened={copied || undefined}>
            <ActionIcon
              variant="subtle"
              size={size === 'xs' ? 'sm' : 'md'}
              color={copied ? 'teal' : 'gray'}
              onClick={copy}
              aria-label={`Copy ${url}`}
            >
              {copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </span>
  );
}
