import { Code, Table, Text } from '@mantine/core';
import type { Header } from '@wharf/contract';

/** Headers as a read-only path/name/value table; a header without a path is for every path. */
export function HeadersTable({ headers, label }: { headers: Header[]; label: string }) {
  if (headers.length === 0)
    return (
      <Text size="sm" c="dimmed" fs="italic">
        No headers
      </Text>
    );
  return (
    <Table.ScrollContainer minWidth={360}>
      <Table aria-label={label} verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w="25%">Path</Table.Th>
            <Table.Th w="30%">Name</Table.Th>
            <Table.Th>Value</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {headers.map((header) => (
            <Table.Tr key={`${header.path ?? ''} ${header.name}`}>
              <Table.Td style={{ wordBreak: 'break-all' }}>
                {header.path ? (
                  <Code>{header.path}</Code>
                ) : (
                  <Text span size="sm" c="dimmed">
                    Every path
                  </Text>
                )}
              </Table.Td>
              <Table.Td style={{ wordBreak: 'break-all' }}>
                <Code>{header.name}</Code>
              </Table.Td>
              <Table.Td style={{ wordBreak: 'break-all' }}>{header.value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
