import { Badge, Group, Text } from '@mantine/core';
import type { ApiToken } from '@wharf/contract';
import { tokenTiming } from './tokenTiming.ts';

const colors = { pending: 'gray', active: 'teal', expired: 'red' } as const;

export function TokenTimingBadge({ token }: { token: Pick<ApiToken, 'activatesAt' | 'expiresAt'> }) {
  const timing = tokenTiming(token);
  return (
    <Group gap={6} wrap="nowrap">
      <Badge color={colors[timing.state]} variant="light" size="sm" tt="none">
        {timing.label}
      </Badge>
      {timing.state !== 'pending' && timing.expires && (
        <Text size="xs" c={timing.state === 'expired' ? 'red' : 'dimmed'}>
          {timing.expires}
        </Text>
      )}
    </Group>
  );
}
