import { Badge, Button, Group, Paper, Skeleton, Stack, Table, Text } from '@mantine/core';
import { IconCircleCheck, IconClockHour4 } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { api } from '@wharf/contract';
import { CopyAction } from '../../components/CopyAction.tsx';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { apiQuery } from '../../lib/api.ts';
import { relativeTime } from '../../lib/time.ts';

/** While a domain does not point here yet, DNS is asked again this often: a record made shows without a reload. */
const AWAITING_REFRESH_MS = 30_000;

/**
 * The records that make a saved domain reach this Wharf, and whether it points here now: asked of
 * DNS when shown, and again every 30 s while it does not.
 */
export function DomainDns({ siteId, name }: { siteId: string; name: string }) {
  const dns = useQuery({
    ...apiQuery(api.getSiteDomainDns, { params: { siteId, name } }),
    refetchInterval: (query) => (query.state.data?.state === 'pointsHere' ? false : AWAITING_REFRESH_MS),
  });
  if (dns.isPending) return <Skeleton h={80} />;
  if (dns.error) return <ErrorPanel title={`Could not check the DNS of ${name}`} query={dns} />;
  const { data } = dns;
  const pointsHere = data.state === 'pointsHere';
  return (
    <Paper withBorder p="sm" radius="md" aria-label={`DNS of ${name}`}>
      <Stack gap="xs">
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <Badge
            color={pointsHere ? 'teal' : 'orange'}
            variant="light"
            style={{ flexShrink: 0 }}
            leftSection={pointsHere ? <IconCircleCheck size={14} /> : <IconClockHour4 size={14} />}
          >
            {pointsHere ? 'Points here' : 'Awaiting DNS'}
          </Badge>
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {data.found} (checked {relativeTime(data.checkedAt)})
          </Text>
        </Group>
        <Text size="sm">
          {data.apex
            ? `${name} is the apex of its zone: create ${data.records.length > 1 ? 'these records' : 'this record'} at your DNS provider.`
            : `Create this record at your DNS provider:`}
        </Text>
        <Table.ScrollContainer minWidth={320} type="native">
          <Table fz="xs" verticalSpacing={4} aria-label={`Records for ${name}`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={64}>Type</Table.Th>
                <Table.Th>Name</Table.Th>
                <Table.Th>Value</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.records.map((record) => (
                <Table.Tr key={`${record.type} ${record.value}`}>
                  <Table.Td ff="monospace">{record.type}</Table.Td>
                  <Table.Td ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                    {record.name}
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <Text span ff="monospace" fz="xs" style={{ overflowWrap: 'anywhere' }}>
                        {record.value}
                      </Text>
                      <CopyAction value={record.value} label={`Copy the ${record.type} record's value`} />
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {data.records.some((record) => record.type === 'ALIAS') && (
          <Text size="xs" c="dimmed">
            ALIAS: a CNAME at the apex, which DNS providers offer as ALIAS, ANAME or CNAME flattening. Without it,
            create A and AAAA records with the addresses of {data.records[0]!.value}.
          </Text>
        )}
        {!pointsHere && (
          <Group justify="flex-end">
            <Button variant="light" size="xs" loading={dns.isFetching} onClick={() => dns.refetch()}>
              Check again
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
