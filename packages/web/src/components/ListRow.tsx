import { Group, Paper, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconChevronRight } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import classes from './ListRow.module.css';

/** What every row shows: an avatar or icon, the name with its badges, and lines of details below. */
type RowBody = {
  leading?: ReactNode;
  title: ReactNode;
  badges?: ReactNode;
  /** Lines under the name, each a node of its own (dimmed, small). */
  details?: ReactNode;
  /** People read as a name (500) beside entries' names (600). */
  weight?: 500 | 600;
};

function Body({ leading, title, badges, details, weight = 600 }: RowBody) {
  return (
    <Group wrap="nowrap" miw={0}>
      {leading}
      <Stack gap={2} miw={0}>
        <Group gap={6} wrap="nowrap" miw={0}>
          <Text fw={weight} truncate>
            {title}
          </Text>
          {badges}
        </Group>
        {details}
      </Stack>
    </Group>
  );
}

const chevron = (
  <IconChevronRight size={18} stroke={1.5} color="var(--mantine-color-dimmed)" style={{ flex: 'none' }} />
);

function Opens(body: RowBody) {
  return (
    <Group wrap="nowrap" justify="space-between">
      <Body {...body} />
      {chevron}
    </Group>
  );
}

/** The bordered box that holds rows, one under the other. */
export function RowList({ children, ...props }: { children: ReactNode; 'aria-busy'?: boolean }) {
  return (
    <Paper withBorder className={classes.list} {...props}>
      {children}
    </Paper>
  );
}

/** A row that opens an entry's page. */
export function LinkRow({ to, label, ...body }: RowBody & { to: string; label?: string }) {
  return (
    <Link to={to} className={classes.row} aria-label={label}>
      <Opens {...body} />
    </Link>
  );
}

/**
 * A row that opens an entry's page while holding links of its own (an address), which a link
 * cannot contain: it acts as a link by role, click and Enter.
 */
export function LinkRowWithLinks({ to, label, ...body }: RowBody & { to: string; label: string }) {
  const navigate = useNavigate();
  return (
    // biome-ignore lint/a11y/useSemanticElements: a link inside a link is not valid HTML
    <div
      className={classes.row}
      role="link"
      tabIndex={0}
      aria-label={label}
      onClick={() => navigate(to)}
      onKeyDown={(event) => event.key === 'Enter' && navigate(to)}
      style={{ cursor: 'pointer' }}
    >
      <Opens {...body} />
    </div>
  );
}

/** A row that does something in place (select an organization) rather than open a page. */
export function ButtonRow({
  onClick,
  disabled,
  label,
  ...body
}: RowBody & { onClick: () => void; disabled: boolean; label: string }) {
  return (
    <UnstyledButton className={classes.row} onClick={onClick} disabled={disabled} aria-label={label}>
      <Opens {...body} />
    </UnstyledButton>
  );
}

/**
 * A row with its own actions at the right (switches, remove). With `wrapActions` the actions
 * drop under the name on a narrow screen instead of squeezing it.
 */
export function ListRow({
  label,
  actions,
  wrapActions = false,
  ...body
}: RowBody & { label: string; actions?: ReactNode; wrapActions?: boolean }) {
  if (wrapActions)
    return (
      <Group className={classes.row} justify="space-between" wrap="wrap" gap="sm" aria-label={label}>
        <div style={{ flex: '1 1 180px', minWidth: 0 }}>
          <Body {...body} />
        </div>
        <Group gap="xs" wrap="nowrap" style={{ flex: '1 1 240px' }} justify="flex-end">
          {actions}
        </Group>
      </Group>
    );
  return (
    <Group className={classes.row} justify="space-between" wrap="nowrap" aria-label={label}>
      <Body {...body} />
      {actions}
    </Group>
  );
}

/** A dimmed line of details under a row's name; `title` holds the exact time behind a relative one. */
export function RowDetail({
  children,
  title,
  truncate = true,
}: {
  children: ReactNode;
  title?: string;
  truncate?: boolean;
}) {
  return (
    <Text size="xs" c="dimmed" truncate={truncate} title={title}>
      {children}
    </Text>
  );
}
