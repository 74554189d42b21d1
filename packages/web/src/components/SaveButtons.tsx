import { Button, Group, type GroupProps } from '@mantine/core';

/** Discard and Save of a settings form: both wait until something changed. */
export function SaveButtons({
  dirty,
  saving,
  onDiscard,
  children,
  ...group
}: GroupProps & {
  dirty: boolean;
  saving: boolean;
  /** Without it, only Save shows. */
  onDiscard?: () => void;
}) {
  return (
    <Group {...group}>
      {children}
      {onDiscard && (
        <Button variant="default" onClick={onDiscard} disabled={!dirty}>
          Discard
        </Button>
      )}
      <Button type="submit" loading={saving} disabled={!dirty}>
        Save
      </Button>
    </Group>
  );
}
