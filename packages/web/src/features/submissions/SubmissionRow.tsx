import { ActionIcon, Badge, Group, Stack, Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import type { Submission } from '@wharf/contract';
import classes from '../../components/ListRow.module.css';
import { exactTime, relativeTime } from '../../lib/time.ts';
import rowClasses from './SubmissionRow.module.css';

/** One submission: when, which form (and branch), and what the visitor filled in, name by name. */
export function SubmissionRow({
  submission,
  showBranch,
  onDelete,
}: {
  submission: Submission;
  showBranch: boolean;
  onDelete: (submission: Submission) => void;
}) {
  const fields = Object.entries(submission.fields);
  return (
    <Group
      className={classes.row}
      justify="space-between"
      align="flex-start"
      wrap="nowrap"
      aria-label={`Submission of ${submission.form}`}
    >
      <Stack gap={6} miw={0} style={{ flex: 1 }}>
        <Group gap={6}>
          <Badge variant="light" tt="none">
            {submission.form}
          </Badge>
          {showBranch && (
            <Badge variant="light" color="gray" tt="none" aria-label="Branch">
              {submission.branchName}
            </Badge>
          )}
          <Text size="xs" c="dimmed" title={exactTime(submission.createdAt)}>
            {relativeTime(submission.createdAt)}
          </Text>
        </Group>
        {fields.length === 0 ? (
          <Text size="sm" c="dimmed">
            No fields
          </Text>
        ) : (
          <dl className={rowClasses.fields}>
            {fields.map(([name, value]) => (
              <div key={name} className={rowClasses.field}>
                <dt>{name}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
        )}
      </Stack>
      <ActionIcon
        variant="subtle"
        color="red"
        aria-label={`Delete submission of ${submission.form}`}
        onClick={() => onDelete(submission)}
      >
        <IconTrash size={18} />
      </ActionIcon>
    </Group>
  );
}
