import { Box, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** The heading of a page, with what it is about and its main action. */
export function PageTitle({
  title,
  description,
  leading,
  action,
}: {
  title: ReactNode;
  description?: ReactNode;
  leading?: ReactNode;
  action?: ReactNode;
}) {
  return (
    // The action stays at the top right, beside a long title, rather than wrapping below it on a phone.
    <Group justify="space-between" align="flex-start" mb="lg" gap="md" wrap="nowrap">
      <Group gap="md" wrap="nowrap" miw={0}>
        {leading}
        <Stack gap={2} miw={0}>
          <Title order={1} size="h2">
            {title}
          </Title>
          {description && (
            <Text c="dimmed" size="sm">
              {description}
            </Text>
          )}
        </Stack>
      </Group>
      {action && <Box flex="none">{action}</Box>}
    </Group>
  );
}
