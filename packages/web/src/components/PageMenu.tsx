import { ActionIcon, Menu } from '@mantine/core';
import { IconDots, IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** A page's own actions (rename, delete) behind the dots button at the right of its title. */
export function PageMenu({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Menu position="bottom-end">
      <Menu.Target>
        <ActionIcon variant="default" size="lg" aria-label={label}>
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>{children}</Menu.Dropdown>
    </Menu>
  );
}

/** The red delete entry of a page menu; it only opens the confirmation. */
export function DeleteMenuItem({
  onClick,
  disabled = false,
  children = 'Delete',
}: {
  onClick: () => void;
  disabled?: boolean;
  children?: ReactNode;
}) {
  return (
    <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={onClick} disabled={disabled}>
      {children}
    </Menu.Item>
  );
}
