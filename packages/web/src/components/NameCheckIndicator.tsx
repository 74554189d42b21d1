import { Loader } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';

/** The right section of a name field checked by the server: waiting, or free. */
export function NameCheckIndicator({ check }: { check: { pending: boolean; checked: boolean; error: string | null } }) {
  if (check.pending) return <Loader size={14} />;
  if (check.checked && !check.error)
    return <IconCheck size={16} color="var(--mantine-color-teal-6)" aria-label="Name is free" />;
  return null;
}
