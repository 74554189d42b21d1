import { Button, Code, Group, SegmentedControl, Select, Skeleton, Stack } from '@mantine/core';
import { IconDownload, IconInbox } from '@tabler/icons-react';
import { keepPreviousData, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Submission } from '@wharf/contract';
import { useEffect, useState } from 'react';
import { ConfirmModal } from '../../components/ConfirmModal.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { RowList } from '../../components/ListRow.tsx';
import { PageFooter } from '../../components/LoadMore.tsx';
import { call } from '../../lib/api.ts';
import { downloadFile } from '../../lib/download.ts';
import { notifyFailure } from '../../lib/notify.ts';
import { SubmissionRow } from './SubmissionRow.tsx';
import { submissionsQuery } from './submissionsQuery.ts';

/** The forms to filter by: those declared, those seen in the list, and the one chosen, sorted. */
export function formChoices(declared: string[], items: Submission[], chosen: string | null) {
  return [...new Set([...declared, ...items.map((item) => item.form), ...(chosen ? [chosen] : [])])].sort();
}

/**
 * What visitors posted to a site's forms, newest first: the inbox or the spam the honeypot caught,
 * for one form or all, with delete and a CSV export of what the filters keep. With a `branchId`
 * it shows that branch's alone; without, every branch's with the branch on each row.
 */
export function SubmissionsList({
  siteId,
  branchId,
  forms = [],
}: {
  siteId: string;
  branchId?: string;
  /** Form names to offer in the filter before any submission of them is loaded. */
  forms?: string[];
}) {
  const client = useQueryClient();
  const [spam, setSpam] = useState(false);
  const [form, setForm] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Submission | null>(null);
  const filter = { branchId, form: form ?? undefined, spam };
  const submissions = useInfiniteQuery({
    ...submissionsQuery({ siteId, ...filter }),
    placeholderData: keepPreviousData,
  });
  const remove = useMutation({
    mutationFn: (submission: Submission) =>
      call(api.deleteSubmission, { params: { siteId, submissionId: submission._id } }),
    onSuccess: async () => {
      setDeleting(null);
      await client.invalidateQueries({ queryKey: [api.listSubmissions.path] });
    },
    onError: (error) => notifyFailure('delete submission', error),
  });
  const exporting = useMutation({
    mutationFn: () => downloadFile(api.exportSubmissions, { params: { siteId }, query: filter }),
    onError: (error) => notifyFailure('export submissions', error),
  });
  useEffect(() => {
    if (submissions.error) notifyFailure('list submissions', submissions.error);
  }, [submissions.error]);

  const items = submissions.data?.pages.flatMap((page) => page.items) ?? [];
  const total = submissions.data?.pages[0]?.count ?? 0;
  return (
    <Stack>
      <Group justify="space-between" align="flex-end" gap="sm">
        <Group gap="sm" align="flex-end">
          <SegmentedControl
            aria-label="Inbox or spam"
            data={[
              { value: 'inbox', label: 'Inbox' },
              { value: 'spam', label: 'Spam' },
            ]}
            value={spam ? 'spam' : 'inbox'}
            onChange={(value) => setSpam(value === 'spam')}
          />
          <Select
            aria-label="Form"
            placeholder="All forms"
            data={formChoices(forms, items, form)}
            value={form}
            onChange={setForm}
            clearable
            w={180}
          />
        </Group>
        <Button
          variant="default"
          leftSection={<IconDownload size={16} />}
          onClick={() => exporting.mutate()}
          loading={exporting.isPending}
          disabled={total === 0}
        >
          Export CSV
        </Button>
      </Group>
      {submissions.isPending && <Skeleton h={160} />}
      {submissions.error && <ErrorPanel title="Could not list submissions" query={submissions} />}
      {submissions.isSuccess && items.length === 0 && (
        <EmptyState
          icon={<IconInbox size={26} stroke={1.5} />}
          title="No submissions"
          description={
            spam ? (
              "Posts that fill in a form's hidden honeypot field (or _gotcha), as bots do, are kept here."
            ) : (
              <>
                A page of the site posts to one of the site's forms:
                <br />
                <Code>{'<form method="post" action="/.wharf/forms/NAME">'}</Code>
              </>
            )
          }
        />
      )}
      {items.length > 0 && (
        <RowList aria-busy={submissions.isFetching}>
          {items.map((submission) => (
            <SubmissionRow key={submission._id} submission={submission} showBranch={!branchId} onDelete={setDeleting} />
          ))}
        </RowList>
      )}
      {total > 0 && <PageFooter list={submissions} shown={items.length} total={total} noun="submission" />}
      <ConfirmModal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title="Delete submission"
        confirmLabel="Delete submission"
        onConfirm={() => deleting && remove.mutate(deleting)}
        loading={remove.isPending}
      >
        Delete this submission of <b>{deleting?.form}</b>? What the visitor sent is gone for good.
      </ConfirmModal>
    </Stack>
  );
}
