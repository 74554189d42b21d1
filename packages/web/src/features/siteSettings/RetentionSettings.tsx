import { Card, Group, NumberInput, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type Site, type SiteRetention, siteRetention } from '@wharf/contract';
import { SaveButtons } from '../../components/SaveButtons.tsx';
import { apiQuery, call } from '../../lib/api.ts';
import { formatBytes } from '../../lib/bytes.ts';
import { contractResolver, startFormFrom } from '../../lib/form.ts';
import { notifyFailure, notifySuccess } from '../../lib/notify.ts';

/** An empty field is a choice too: no limit of that kind. */
interface RetentionValues {
  keepReleasesDays: number | string;
  keepReleasesCount: number | string;
}

const valuesOf = (retention: SiteRetention): RetentionValues => ({
  keepReleasesDays: retention.keepReleasesDays ?? '',
  keepReleasesCount: retention.keepReleasesCount ?? '',
});

const limitOf = (value: number | string) => (value === '' ? null : Number(value));

const bodyOf = (values: RetentionValues): SiteRetention => ({
  keepReleasesDays: limitOf(values.keepReleasesDays),
  keepReleasesCount: limitOf(values.keepReleasesCount),
});

function DiskUsage({ siteId }: { siteId: string }) {
  const usage = useQuery(apiQuery(api.getSiteUsage, { params: { siteId } }));
  if (usage.isError) return <Text c="red">Could not load the disk usage: {usage.error.message}</Text>;
  if (!usage.data) return <Text c="dimmed">Counting the disk used…</Text>;
  const { bytes, compressedBytes, files, releases } = usage.data;
  return (
    <Group gap="xs" align="baseline" aria-label="Disk used">
      <Text fw={600} size="lg">
        {formatBytes(bytes + compressedBytes)}
      </Text>
      <Text size="sm" c="dimmed">
        on disk: {files} distinct {files === 1 ? 'file' : 'files'} ({formatBytes(bytes)}) and their compressed copies (
        {formatBytes(compressedBytes)}), in {releases} {releases === 1 ? 'release' : 'releases'}
      </Text>
    </Group>
  );
}

/** Settings › General › Retention: the disk the site's releases take, and how long unserved ones stay. */
export function RetentionSettings({ site }: { site: Site }) {
  const client = useQueryClient();
  const params = { siteId: site._id };
  const form = useForm<RetentionValues>({
    initialValues: valuesOf(site.retention),
    validate: (values) => contractResolver<SiteRetention>(siteRetention)(bodyOf(values)),
  });
  const save = useMutation({
    mutationFn: (values: RetentionValues) => call(api.setSiteRetention, { params, body: bodyOf(values) }),
    onSuccess: (saved) => {
      startFormFrom(form, valuesOf(saved.retention));
      notifySuccess('Site saved');
      client.setQueryData(apiQuery(api.getSite, { params }).queryKey, saved);
    },
    onError: (error) => notifyFailure('update site', error),
  });
  return (
    <Card>
      <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate>
        <Stack>
          <Title order={2} size="h4">
            Retention
          </Title>
          <DiskUsage siteId={site._id} />
          <Text size="sm" c="dimmed">
            Releases that no branch serves are deleted once they are older than the days below or beyond the newest
            releases counted below; their files go once no other release uses them. Served releases always stay. Leave a
            field empty for no limit of that kind.
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <NumberInput
              label="Keep for (days)"
              placeholder="No limit"
              min={1}
              max={3650}
              allowDecimal={false}
              clampBehavior="none"
              {...form.getInputProps('keepReleasesDays')}
            />
            <NumberInput
              label="Keep the newest (releases)"
              placeholder="No limit"
              min={1}
              max={100_000}
              allowDecimal={false}
              clampBehavior="none"
              {...form.getInputProps('keepReleasesCount')}
            />
          </SimpleGrid>
          <SaveButtons
            justify="flex-end"
            dirty={form.isDirty()}
            saving={save.isPending}
            onDiscard={() => form.reset()}
          />
        </Stack>
      </form>
    </Card>
  );
}
