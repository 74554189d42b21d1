import { Anchor, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Header, type Site } from '@wharf/contract';
import { Link, Route, Routes, useNavigate } from 'react-router';
import { HeadersEditor } from '../../components/HeadersEditor.tsx';
import { HeadersTable } from '../../components/HeadersTable.tsx';
import { apiQuery, call } from '../../lib/api.ts';
import { notifyFailure, notifySuccess } from '../../lib/notify.ts';

const description =
  "Every branch answers with these headers, over the release's _headers; a branch header of the same name overrides one. A header with a path applies only where the path matches.";

function HeadersView({ site }: { site: Site }) {
  return (
    <Card>
      <Stack>
        <Group justify="space-between">
          <Title order={2} size="h4">
            Headers
          </Title>
          <Anchor component={Link} to="edit" size="sm">
            <Group gap={4} component="span">
              <IconPencil size={14} aria-hidden />
              Edit
            </Group>
          </Anchor>
        </Group>
        <Text size="sm" c="dimmed">
          {description}
        </Text>
        <HeadersTable headers={site.headers} label="Site headers" />
      </Stack>
    </Card>
  );
}

function HeadersEdit({ site }: { site: Site }) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const base = `/sites/${site._id}/settings/headers`;
  const save = useMutation({
    mutationFn: (headers: Header[]) => call(api.setSiteHeaders, { params: { siteId: site._id }, body: { headers } }),
    onSuccess: (headers) => {
      client.setQueryData(apiQuery(api.getSite, { params: { siteId: site._id } }).queryKey, { ...site, headers });
      notifySuccess('Site saved');
      navigate(base);
    },
    onError: (error) => notifyFailure('save headers', error),
  });
  return (
    <HeadersEditor
      title={
        <Title order={2} size="h4">
          Edit headers
        </Title>
      }
      description={description}
      headers={site.headers}
      saving={save.isPending}
      onSave={(headers) =>
        save.mutateAsync(headers).then(
          () => true,
          () => false,
        )
      }
      extraActions={
        <Anchor component={Link} to={base} size="sm" mr="xs">
          Back
        </Anchor>
      }
    />
  );
}

/** Settings › Headers: the site's headers as a table, and their editor at /edit. */
export function SiteHeadersSettings({ site }: { site: Site }) {
  return (
    <Routes>
      <Route index element={<HeadersView site={site} />} />
      <Route path="edit" element={<HeadersEdit site={site} />} />
    </Routes>
  );
}
