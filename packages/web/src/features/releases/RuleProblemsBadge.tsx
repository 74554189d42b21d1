import { Badge, Code, Group, List, Popover, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { Release } from '@wharf/contract';
import { useId } from 'react';
import { inFileOrder, problemsSummary } from './ruleProblems.ts';

/**
 * What is wrong in a release's files (`.wharf.yml`, `_redirects`, `_headers`, the forms of its
 * pages): a badge counting the problems, which opens their list, each at its file and line.
 */
export function RuleProblemsBadge({ release }: { release: Release }) {
  const headingId = useId();
  const countId = useId();
  if (release.ruleProblems.length === 0) return null;
  const { text, color } = problemsSummary(release.ruleProblems);
  return (
    <Popover position="bottom-start" width={420} shadow="md" withArrow returnFocus>
      <Popover.Target>
        <Badge
          component="button"
          type="button"
          size="sm"
          variant="light"
          tt="none"
          color={color}
          leftSection={<IconAlertTriangle size={12} aria-hidden />}
          aria-label={`Rule problems of release ${release.name}`}
          aria-describedby={countId}
          style={{ cursor: 'pointer' }}
        >
          <span id={countId}>{text}</span>
        </Badge>
      </Popover.Target>
      <Popover.Dropdown role="dialog" aria-labelledby={headingId} maw="calc(100vw - 32px)">
        <Stack gap="xs">
          <Title id={headingId} order={3} size="h6">
            Problems in the release's files
          </Title>
          <Text size="xs" c="dimmed">
            The release is served without the lines that have errors; warnings point at what may not do what it seems
            to.
          </Text>
          <List spacing={6} size="sm" listStyleType="none">
            {inFileOrder(release.ruleProblems).map((problem) => (
              <List.Item key={`${problem.file}:${problem.line}:${problem.message}`}>
                <Group gap={6} wrap="nowrap" align="flex-start">
                  <Badge
                    size="xs"
                    variant="light"
                    color={problem.severity === 'error' ? 'red' : 'yellow'}
                    style={{ flexShrink: 0 }}
                    mt={2}
                  >
                    {problem.severity}
                  </Badge>
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    <Code>{`${problem.file}:${problem.line}`}</Code> — {problem.message}
                  </Text>
                </Group>
              </List.Item>
            ))}
          </List>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
