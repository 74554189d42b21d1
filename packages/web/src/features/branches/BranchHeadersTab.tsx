import { Anchor, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Header, type Site } from '@wharf/contract';
import { Link } from 'react-router';
import { HeadersEditor } from '../../components/HeadersEditor.tsx';
import { HeadersTable } from '../../components/HeadersTable.tsx';
import { call } from '../../lib/api.ts';
import { notifyFailure, notifySuccess } from '../../lib/notify.ts';
import { type BranchDetail, branchQuery } from './branchQuery.ts';

/** The headers tab of a branch: its own headers, and below them the site's, which they override. */
export function BranchHeadersTab({
  branch,
  site,
  canManage,
}: {
  branch: BranchDetail;
  site: Site;
  canManage: boolean;
}) {
  const client = useQueryClient();
  const save = useMutation({
    mutationFn: (headers: Header[]) =>
      call(api.setBranchHeaders, { params: { siteId: branch.siteId, branchId: branch._id }, body: { headers } }),
    onSuccess: (headers) => {
      client.setQueryData(branchQuery(branch.siteId, branch._id).queryKey, { ...branch, headers });
      notifySuccess('Saved branch headers');
    },
    onError: (error) => notifyFailure('save headers', error),
  });
  const title = (
    <Title order={2} size="h4">
      Branch headers
    </Title>
  );
  const description = 'Sent with every answer of this branch; they override site headers of the same name.';
  return (
    <Stack gap="lg">
      {canManage ? (
        <HeadersEditor
          key={branch._id}
          title={title}
          description={description}
          headers={branch.headers}
          saving={save.isPending}
          onSave={(headers) =>
            save.mutateAsync(headers).then(
              () => true,
              () => false,
            )
          }
        />
      ) : (
        <Card>
          <Stack>
            {title}
            <Text size="sm" c="dimmed">
              {description}
            </Text>
            <HeadersTable headers={branch.headers} label="Branch headers" />
          </Stack>
        </Card>
      )}
      <Card>
        <Stack>
          <Group justify="space-between">
            <Title order={2} size="h4">
              Site headers
            </Title>
            {canManage && (
              <Anchor component={Link} to={`/sites/${site._id}/settings/headers`} size="sm">
                Edit
              </Anchor>
            )}
          </Group>
          <Text size="sm" c="dimmed">
            Every branch of the site answers with these.
          </Text>
          <HeadersTable headers={site.headers} label="Site headers" />
        </Stack>
      </Card>
    </Stack>
  );
}
