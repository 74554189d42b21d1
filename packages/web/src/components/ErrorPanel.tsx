import { Alert } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { errorText } from '../lib/notify.ts';

/** spec.md §8: a loading error takes the place of the content, with the error text. */
export function ErrorPanel({ error, title = 'Could not load this' }: { error: unknown; title?: string }) {
  return (
    <Alert color="red" variant="light" title={title} icon={<IconAlertTriangle />} role="alert">
      {errorText(error)}
    </Alert>
  );
}
