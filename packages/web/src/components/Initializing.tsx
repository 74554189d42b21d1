import { Center, Loader, Stack, Text } from '@mantine/core';

/** spec.md §2: shown until the session and the organization are known. */
export function Initializing() {
  return (
    <Center h="100dvh">
      <Stack align="center" gap="sm" role="status" aria-live="polite">
        <Loader size="lg" />
        <Text c="dimmed">Initializing</Text>
      </Stack>
    </Center>
  );
}
