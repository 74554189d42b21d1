import { Anchor, Code, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { Release } from '@wharf/contract';
import type { ReactNode } from 'react';
import { exactTime, relativeTime } from '../../../lib/time.ts';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2} miw={0}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <div>{children}</div>
    </Stack>
  );
}

/** A link the server checked to be http(s), opened in a new tab; plain text when there is none. */
function Linked({ url, children }: { url: string | undefined; children: ReactNode }) {
  if (!url) return <Text size="sm">{children}</Text>;
  return (
    <Anchor href={url} target="_blank" rel="noopener noreferrer" size="sm">
      {children}
    </Anchor>
  );
}

/** Who uploaded it, with the token they used: what the audit log says too. */
export function uploaderText(uploader: Release['uploader']): string {
  if (!uploader) return 'Not recorded';
  if (uploader.kind === 'siteToken') return `Site token “${uploader.name}”`;
  if (uploader.kind === 'apiToken') return `${uploader.name}, with the API token “${uploader.tokenName ?? 'deleted'}”`;
  return uploader.name;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;

/** Where the release came from: its commit, branch, pull request and CI run, who uploaded it and when. */
export function ReleaseSourceCard({ release }: { release: Release }) {
  const { source } = release;
  const [subject, ...body] = (source.message ?? '').split('\n');
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="release-source">
      <Title order={3} size="h5" mb="sm" id="release-source">
        Source
      </Title>
      {subject && (
        <Text fw={600} mb={body.join('').trim() ? 2 : 'sm'}>
          {subject}
        </Text>
      )}
      {body.join('').trim() && (
        <Text size="sm" c="dimmed" mb="sm" style={{ whiteSpace: 'pre-line' }} lineClamp={4}>
          {body.join('\n').trim()}
        </Text>
      )}
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="md" verticalSpacing="sm">
        <Fact label="Commit">
          {source.commit ? (
            <Linked url={source.commitUrl}>
              <Code>{source.commit.slice(0, 12)}</Code>
            </Linked>
          ) : (
            <Text size="sm">Not given</Text>
          )}
        </Fact>
        {source.branch && (
          <Fact label="Git branch">
            <Text size="sm">{source.branch}</Text>
          </Fact>
        )}
        {source.author && (
          <Fact label="Author">
            <Text size="sm">{source.author}</Text>
          </Fact>
        )}
        {(source.pullRequest || source.pullRequestUrl) && (
          <Fact label="Pull request">
            <Linked url={source.pullRequestUrl}>{source.pullRequest ? `#${source.pullRequest}` : 'Open'}</Linked>
          </Fact>
        )}
        {(source.ci || source.ciRunUrl) && (
          <Fact label="CI run">
            <Linked url={source.ciRunUrl}>{source.ci ?? 'Open the run'}</Linked>
          </Fact>
        )}
        <Fact label="Uploaded by">
          <Text size="sm">{uploaderText(release.uploader)}</Text>
        </Fact>
        <Fact label="Uploaded">
          <Text size="sm" title={exactTime(release.date)}>
            {relativeTime(release.date)}
            {release.uploadMs !== null && `, in ${seconds(release.uploadMs)}`}
          </Text>
        </Fact>
      </SimpleGrid>
    </Paper>
  );
}
