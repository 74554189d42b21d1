import { Anchor, Paper, SimpleGrid, Table, Text, Title } from '@mantine/core';
import type { TrafficList, TrafficSummary } from '@wharf/contract';
import { formatBytes } from '../../lib/bytes.ts';

const number = (value: number) => value.toLocaleString('en');

/** A list of the most counted keys (paths, hosts) and how many requests the rest made. */
function CountedList({
  title,
  keyLabel,
  list,
  empty,
}: {
  title: string;
  keyLabel: string;
  list: TrafficList;
  empty: string;
}) {
  const id = `traffic-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby={id}>
      <Title order={2} size="h5" id={id} mb="xs">
        {title}
      </Title>
      {list.items.length === 0 ? (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      ) : (
        <Table fz="sm" verticalSpacing={4} aria-labelledby={id} layout="fixed">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{keyLabel}</Table.Th>
              <Table.Th w={90} ta="right">
                Requests
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.items.map((item) => (
              <Table.Tr key={item.key}>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>
                  <Text span ff="monospace" fz="sm">
                    {item.key}
                  </Text>
                </Table.Td>
                <Table.Td ta="right">{number(item.requests)}</Table.Td>
              </Table.Tr>
            ))}
            {list.other > 0 && (
              <Table.Tr>
                <Table.Td c="dimmed">Other</Table.Td>
                <Table.Td ta="right" c="dimmed">
                  {number(list.other)}
                </Table.Td>
              </Table.Tr>
            )}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}

/** What a branch key of the traffic is called: its name, or what it stands for. */
export function branchLabel(branch: TrafficSummary['branches'][number]) {
  if (branch.kind === 'releases') return "Releases' own addresses";
  return branch.name ?? 'A deleted branch';
}

/** Each branch's share of the requests and bytes. */
function BranchShares({ summary, onPick }: { summary: TrafficSummary; onPick: (branch: string) => void }) {
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="traffic-branches">
      <Title order={2} size="h5" id="traffic-branches" mb="xs">
        Branches
      </Title>
      {summary.branches.length === 0 ? (
        <Text size="sm" c="dimmed">
          No branch was visited in this range.
        </Text>
      ) : (
        <Table fz="sm" verticalSpacing={4} aria-labelledby="traffic-branches" layout="fixed">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Branch</Table.Th>
              <Table.Th w={90} ta="right">
                Requests
              </Table.Th>
              <Table.Th w={90} ta="right">
                Served
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {summary.branches.map((branch) => (
              <Table.Tr key={branch.branch}>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>
                  <Anchor component="button" type="button" fz="sm" ta="left" onClick={() => onPick(branch.branch)}>
                    {branchLabel(branch)}
                  </Anchor>
                </Table.Td>
                <Table.Td ta="right">{number(branch.requests)}</Table.Td>
                <Table.Td ta="right">{formatBytes(branch.bytes)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}

/** The summary's lists: the paths asked, those not found, where visitors came from, and (site-wide) each branch. */
export function TrafficLists({
  summary,
  wholeSite,
  onPickBranch,
}: {
  summary: TrafficSummary;
  wholeSite: boolean;
  onPickBranch: (branch: string) => void;
}) {
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
      <CountedList title="Top paths" keyLabel="Path" list={summary.paths} empty="No path was served in this range." />
      <CountedList
        title="Not found"
        keyLabel="Path"
        list={summary.missing}
        empty="No request was answered 404 in this range."
      />
      <CountedList
        title="Referrers"
        keyLabel="Host"
        list={summary.referrers}
        empty="No visitor came from another site in this range."
      />
      {wholeSite && <BranchShares summary={summary} onPick={onPickBranch} />}
    </SimpleGrid>
  );
}
