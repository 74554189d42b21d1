import { Alert, Button, Group, Stack } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { SecretValue } from './SecretValue.tsx';

/** What a modal shows once it made a secret (a token, a build hook's address): what it allows, the value to copy, Done. */
export function CreatedSecret({
  notice,
  value,
  label,
  onDone,
  children,
}: {
  notice: ReactNode;
  value: string;
  label: string;
  onDone: () => void;
  /** How to use it, under the value. */
  children?: ReactNode;
}) {
  return (
    <Stack>
      <Alert variant="light" icon={<IconInfoCircle />}>
        {notice}
      </Alert>
      <SecretValue value={value} label={label} shown="revealed" />
      {children}
      <Group justify="flex-end">
        <Button onClick={onDone}>Done</Button>
      </Group>
    </Stack>
  );
}
