import { Text } from '@mantine/core';
import { exactTime, relativeTime } from '../lib/time.ts';

/** When something offered for a while (an invitation, a sign-in request) ends: 'expired' in red once past. */
export function Expiry({ at, expired, size = 'sm' }: { at: string; expired: boolean; size?: 'xs' | 'sm' }) {
  if (expired)
    return (
      <Text size={size} c="red" fw={size === 'sm' ? 600 : undefined}>
        expired
      </Text>
    );
  return (
    <Text size={size} c="dimmed" title={exactTime(at)}>
      Expires {relativeTime(at)}
    </Text>
  );
}
