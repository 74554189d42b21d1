import { ActionIcon, type ActionIconProps, Box, Button, Group, Paper, Text, Tooltip } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** What a row needs to offer its own removal: the label of its control and the action. */
export interface RowRemoval {
  label: string;
  onClick: () => void;
}

/** The trash button that removes one row, named after the row for screen readers. */
export function RemoveRowButton({ label, onClick, ...icon }: RowRemoval & ActionIconProps) {
  return (
    <Tooltip label="Remove" withArrow>
      <ActionIcon variant="subtle" color="red" aria-label={label} onClick={onClick} {...icon}>
        <IconTrash size={16} />
      </ActionIcon>
    </Tooltip>
  );
}

const capitalized = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * A list of rows of a form (headers, redirects, forms, domains): 'No {noun}s' when empty, each row a
 * group named '{Noun} n', and 'Add {noun}' under them beside the form's own actions. The rows'
 * fields come from the caller, bound to the form, so their errors show under them.
 */
export function RowsEditor<Row>({
  noun,
  rows,
  renderRow,
  onAdd,
  onRemove,
  canEdit = true,
  framed = true,
  actions,
}: {
  /** One row, in lowercase; every noun of the console's editors takes an 's' in the plural. */
  noun: string;
  rows: Row[];
  renderRow: (row: Row, index: number, removal: RowRemoval) => ReactNode;
  onAdd: () => void;
  onRemove: (index: number) => void;
  /** Without it, the rows are read-only and neither Add nor the actions show. */
  canEdit?: boolean;
  /** Each row in a bordered box; without it, the row's fields stand on one line. */
  framed?: boolean;
  /** Shown at the right of Add, such as Discard and Save. */
  actions?: ReactNode;
}) {
  const add = (
    <Button
      variant="light"
      leftSection={<IconPlus size={16} />}
      onClick={onAdd}
      style={actions ? undefined : { alignSelf: 'flex-start' }}
    >
      {`Add ${noun}`}
    </Button>
  );
  return (
    <>
      {rows.length === 0 && (
        <Text size="sm" c="dimmed" fs="italic">
          {`No ${noun}s`}
        </Text>
      )}
      {rows.map((row, index) => {
        const label = `${capitalized(noun)} ${index + 1}`;
        const removal = { label: `Remove ${noun} ${index + 1}`, onClick: () => onRemove(index) };
        const content = renderRow(row, index, removal);
        return framed ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows are identified by position only
          <Paper key={index} withBorder p="sm" radius="md" role="group" aria-label={label}>
            {content}
          </Paper>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows are identified by position only
          <Box key={index} role="group" aria-label={label}>
            {content}
          </Box>
        );
      })}
      {canEdit &&
        (actions ? (
          <Group justify="space-between">
            {add}
            {actions}
          </Group>
        ) : (
          add
        ))}
    </>
  );
}
