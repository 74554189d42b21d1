import { Badge, Group, Pagination, Paper, Skeleton, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { messages, type Release } from '@wharf/contract';
import { useState } from 'react';
import { ErrorPanel } from '../../../components/ErrorPanel.tsx';
import { formatBytes } from '../../../lib/bytes.ts';
import { countOf } from '../../../lib/plural.ts';
import { useSearchTerm } from '../../../lib/useSearchTerm.ts';
import { FILES_PAGE_SIZE, releaseFilesQuery } from './releaseQueries.ts';

/** How much of the release the organization stored for it, and how much it had already. */
function storedText(release: Release) {
  const all = `${countOf(release.fileCount, 'file')}, ${formatBytes(release.size)}`;
  if (release.newFiles === null || release.newSize === null) return all;
  const kept = release.fileCount - release.newFiles;
  return `${all}: ${release.newFiles} new (${formatBytes(release.newSize)}), ${kept} already stored`;
}

/** The release's files by path, a page at a time, with their sizes and the encodings served besides them. */
export function ReleaseFilesCard({ release }: { release: Release }) {
  const [input, setInput] = useState('');
  const { term, tooShort } = useSearchTerm(input);
  // The page belongs to the search it was chosen in: a new search starts at the first.
  const [chosen, setChosen] = useState({ term: '', page: 0 });
  const page = chosen.term === term ? chosen.page : 0;
  const files = useQuery(releaseFilesQuery(release._id, page, term));
  const pages = Math.ceil((files.data?.count ?? 0) / FILES_PAGE_SIZE);
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="release-files">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-end">
          <div>
            <Title order={3} size="h5" id="release-files">
              Files
            </Title>
            <Text size="sm" c="dimmed">
              {storedText(release)}
            </Text>
          </div>
          <TextInput
            label="Search files"
            placeholder="Part of a path"
            leftSection={<IconSearch size={16} />}
            value={input}
            onChange={(event) => setInput(event.currentTarget.value)}
            description={tooShort ? messages.searchMinLength : undefined}
            w={{ base: '100%', xs: 260 }}
          />
        </Group>
        {files.isPending && <Skeleton h={120} />}
        {files.error && <ErrorPanel title="Could not list release files" query={files} />}
        {files.data && files.data.items.length === 0 && (
          <Text size="sm" c="dimmed">
            No results
          </Text>
        )}
        {files.data && files.data.items.length > 0 && (
          <Table.ScrollContainer minWidth={300} type="native">
            <Table striped fz="sm" verticalSpacing={6} aria-label="Release files" aria-busy={files.isFetching}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Path</Table.Th>
                  <Table.Th ta="right">Size</Table.Th>
                  <Table.Th>Also served as</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {files.data.items.map((file) => (
                  <Table.Tr key={file.path}>
                    <Table.Td style={{ wordBreak: 'break-all' }} title={`sha256 ${file.hash}`}>
                      {file.path}
                    </Table.Td>
                    <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                      {formatBytes(file.size)}
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4}>
                        {file.encodings.map((encoding) => (
                          <Badge key={encoding} size="sm" variant="light" color="gray" tt="none">
                            {encoding}
                          </Badge>
                        ))}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {pages > 1 && (
          <Pagination
            total={pages}
            value={page + 1}
            onChange={(value) => setChosen({ term, page: value - 1 })}
            size="sm"
            getControlProps={(control) => ({ 'aria-label': `${control} page` })}
            getItemProps={(value) => ({ 'aria-label': `Page ${value}` })}
          />
        )}
      </Stack>
    </Paper>
  );
}
