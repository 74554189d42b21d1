import { ActionIcon, Anchor, Group, Menu, Stack, Text } from '@mantine/core';
import { IconDots, IconPackage, IconPencil, IconTrash } from '@tabler/icons-react';
import type { Release } from '@wharf/contract';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import classes from '../../components/ListRow.module.css';
import { formatBytes } from '../../lib/bytes.ts';
import { countOf } from '../../lib/plural.ts';
import { exactTime, relativeTime } from '../../lib/time.ts';
import { RuleProblemsBadge } from './RuleProblemsBadge.tsx';

/** ` · 3f2c9a1 by Ada`: the commit it was built from and its author, when the upload said. */
function sourceText({ source }: Release) {
  const commit = source.commit ? ` · ${source.commit.slice(0, 7)}` : '';
  return source.author ? `${commit || ' ·'} by ${source.author}` : commit;
}

/**
 * One release: its name, when it was uploaded, its size, the branches serving it, the problems of its
 * `_redirects` and `_headers`, and its actions.
 */
export function ReleaseRow({
  release,
  badges,
  actions,
  onRename,
  onDelete,
}: {
  release: Release;
  badges?: ReactNode;
  actions?: ReactNode;
  onRename?: (release: Release) => void;
  onDelete?: (release: Release) => void;
}) {
  return (
    <Group className={classes.row} justify="space-between" wrap="nowrap" aria-label={`Release ${release.name}`}>
      <Group wrap="nowrap" miw={0} gap="sm">
        <IconPackage size={20} stroke={1.5} color="var(--mantine-color-dimmed)" aria-hidden style={{ flexShrink: 0 }} />
        <Stack gap={2} miw={0}>
          <Group gap={6}>
            <Anchor
              component={Link}
              to={`/sites/${release.siteId}/releases/${release._id}`}
              fw={600}
              c="var(--mantine-color-text)"
              truncate
            >
              {release.name}
            </Anchor>
            {badges}
            <RuleProblemsBadge release={release} />
          </Group>
          <Text size="xs" c="dimmed" title={exactTime(release.date)}>
            {relativeTime(release.date)} · {countOf(release.fileCount, 'file')} · {formatBytes(release.size)}
            {release.branches.length > 0 && ` · served by ${release.branches.map((branch) => branch.name).join(', ')}`}
            {sourceText(release)}
          </Text>
        </Stack>
      </Group>
      <Group gap="xs" wrap="nowrap">
        {actions}
        {(onRename || onDelete) && (
          <Menu position="bottom-end">
            <Menu.Target>
              <ActionIcon variant="subtle" color="gray" aria-label={`Actions of ${release.name}`}>
                <IconDots size={18} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              {onRename && (
                <Menu.Item leftSection={<IconPencil size={16} />} onClick={() => onRename(release)}>
                  Rename
                </Menu.Item>
              )}
              {onDelete && (
                <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => onDelete(release)}>
                  Delete
                </Menu.Item>
              )}
            </Menu.Dropdown>
          </Menu>
        )}
      </Group>
    </Group>
  );
}
