import { Anchor, type MantineSize } from '@mantine/core';
import { CopyAction } from './CopyAction.tsx';
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
      <CopyAction value={url} label={`Copy ${url}`} size="md" iconSize={14} variant="subtle" color="gray" />
    </span>
  );
}
