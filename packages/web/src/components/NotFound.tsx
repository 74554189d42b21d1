import { Button, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

export function NotFound() {
  return (
    <Stack align="center" gap="sm" py={80} ta="center">
      <Text fz={64} fw={800} c="dimmed" lh={1}>
        404
      </Text>
      <Title order={1}>Not found</Title>
      <Text c="dimmed">There is nothing at this address.</Text>
      <Button component={Link} to="/" variant="light" mt="sm">
        Go home
      </Button>
    </Stack>
  );
}
