import { Box, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** How a heading looks at each level: a page's own (h1), or an entry's page inside it (h2). */
const levels = {
  1: { size: 'h2', margin: 'lg' },
  2: { size: 'h3', margin: 'md' },
} as const;

/**
 * The heading of a page: its avatar or icon, its title with badges beside it, what it is about,
 * and its main action or menu at the right.
 */
export function PageTitle({
  title,
  description,
  leading,
  badges,
  action,
  level = 1,
}: {
  title: ReactNode;
  description?: ReactNode;
  leading?: ReactNode;
  /** Shown beside the title, outside the heading, so the heading's name stays the title alone. */
  badges?: ReactNode;
  action?: ReactNode;
  level?: 1 | 2;
}) {
  const { size, margin } = levels[level];
  return (
    // The action stays at the top right, beside a long title, rather than wrapping below it on a phone.
    <Group justify="space-between" align="flex-start" mb={margin} gap="md" wrap="nowrap">
      <Group gap="md" wrap="nowrap" miw={0}>
        {leading}
        <Stack gap={2} miw={0}>
          <Group gap="xs" miw={0}>
            <Title order={level} size={size}>
              {title}
            </Title>
            {badges}
          </Group>
          {description && (
            <Text c="dimmed" size="sm" component="div">
              {description}
            </Text>
          )}
        </Stack>
      </Group>
      {action && <Box flex="none">{action}</Box>}
    </Group>
  );
}
