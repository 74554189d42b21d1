import { Anchor, Badge, Group, Text } from '@mantine/core';
import type { Site } from '@wharf/contract';
import { Link } from 'react-router';
import { exactTime, relativeTime } from '../../lib/time.ts';

/** In the site's header: the release its main branch serves (linked to its page), and a failed last deploy. */
export function LiveRelease({ site }: { site: Site }) {
  const failed = site.lastDeploy?.state === 'failed' ? site.lastDeploy : null;
  return (
    <Group gap={6} component="span" wrap="wrap">
      <span aria-hidden>·</span>
      {site.live ? (
        <Text span size="sm" c="dimmed">
          live:{' '}
          <Anchor component={Link} to={`/sites/${site._id}/releases/${site.live._id}`} size="sm">
            {site.live.name}
          </Anchor>{' '}
          <span title={exactTime(site.live.date)}>{relativeTime(site.live.date)}</span>
        </Text>
      ) : (
        <Text span size="sm" c="dimmed">
          nothing live yet
        </Text>
      )}
      {failed && (
        <Anchor component={Link} to={`/sites/${site._id}/releases`} title={failed.message ?? undefined}>
          <Badge size="sm" color="red" variant="light" style={{ cursor: 'pointer' }}>
            deploy failed
          </Badge>
        </Anchor>
      )}
    </Group>
  );
}
