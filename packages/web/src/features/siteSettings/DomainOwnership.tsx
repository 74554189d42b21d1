import { Alert, Badge, Button, Code, Group, Paper, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type DomainOwnership as Ownership } from '@wharf/contract';
import { CopyAction } from '../../components/CopyAction.tsx';
import { apiQuery, call } from '../../lib/api.ts';
import { errorText, notifySuccess } from '../../lib/notify.ts';
import { exactTime } from '../../lib/time.ts';

function CopyableValue({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Group gap="xs" wrap="nowrap">
        <Code fz="xs" px="sm" py={6} style={{ flex: 1, overflowWrap: 'anywhere' }}>
          {value}
        </Code>
        <CopyAction value={value} label={`Copy the record's ${label.toLowerCase()}`} size="lg" />
      </Group>
    </Stack>
  );
}

const ENDED_LABELS = { taken: 'Taken', expired: 'Expired' } as const;

/** A claim not verified yet, or one that ended unverified (another site verified the name, or time ran out) and why. */
function ClaimState({ ownership }: { ownership: Ownership }) {
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <Badge color={ownership.ended ? 'red' : 'orange'} variant="light" style={{ flexShrink: 0 }}>
        {ownership.ended ? ENDED_LABELS[ownership.ended.reason] : 'Not verified'}
      </Badge>
      <Text size="xs" c="dimmed">
        {ownership.ended?.message ?? 'Wharf serves this domain once you prove you hold it.'}
      </Text>
    </Group>
  );
}

/**
 * Whether Wharf serves a saved custom domain: only once its owners proved they hold it, by a TXT
 * record, or by pointing the domain at Wharf, which then answers the HTTP challenge.
 */
export function DomainOwnership({ siteId, name, ownership }: { siteId: string; name: string; ownership: Ownership }) {
  const client = useQueryClient();
  const verify = useMutation({
    mutationFn: () => call(api.verifySiteDomain, { params: { siteId, name } }),
    onSuccess: (site) => {
      client.setQueryData(apiQuery(api.getSite, { params: { siteId } }).queryKey, site);
      notifySuccess(`${name} is verified`);
    },
    // The reason is shown below the button, and kept by the server for the next visit.
    onError: () => client.invalidateQueries({ queryKey: apiQuery(api.getSite, { params: { siteId } }).queryKey }),
  });
  if (ownership.verifiedAt)
    return (
      <Group gap="xs">
        <Badge color="teal" variant="light" leftSection={<IconCircleCheck size={14} />}>
          Verified
        </Badge>
        <Text size="xs" c="dimmed">
          Served since {exactTime(ownership.verifiedAt)}
        </Text>
      </Group>
    );
  // The server keeps the reason of the last failed check; the answer's own message until it is read again.
  const reason = ownership.lastError ?? (verify.isError ? errorText(verify.error) : undefined);
  return (
    <Paper withBorder p="sm" radius="md" aria-label={`Ownership of ${name}`}>
      <Stack gap="sm">
        <ClaimState ownership={ownership} />
        <Text size="sm">Create this TXT record at your DNS provider:</Text>
        <CopyableValue label="Name" value={`_wharf.${name}`} />
        <CopyableValue label="Value" value={ownership.token} />
        {/* A claim that ended is proved by its TXT record only: Wharf no longer answers its challenge. */}
        {!ownership.ended && (
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            Or, when Wharf cannot reach your DNS, point {name} at this Wharf: it then answers{' '}
            <Code fz="xs">{`http://${name}/.well-known/wharf-ownership/${ownership.token}`}</Code>, which proves it too.
          </Text>
        )}
        {reason && (
          <Alert
            color="red"
            icon={<IconAlertTriangle size={16} />}
            title="The last check failed"
            styles={{ message: { overflowWrap: 'anywhere' } }}
          >
            {reason}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="light" loading={verify.isPending} onClick={() => verify.mutate()}>
            Verify now
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
