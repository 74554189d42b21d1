import { Alert, Group, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { exactTime } from '../../lib/time.ts';
import { coverage } from './CertificateExpiry.tsx';
import type { AcmeStatus as Status } from './domainValues.ts';

/**
 * Where the certificate Wharf obtains for a domain stands: not asked for yet (it is ordered at
 * the domain's first HTTPS request), being ordered, valid until when, or failed with the reason
 * and the time of the next attempt (a served certificate stays served while a renewal fails),
 * with `retry` beside it (see RetryCertificateButton).
 */
export function AcmeStatus({ status, retry }: { status: Status | undefined; retry?: ReactNode }) {
  if (!status)
    return (
      <Text size="xs" c="dimmed">
        No certificate yet: Wharf requests one at this domain's first HTTPS visit, once its DNS points here.
      </Text>
    );
  if (status.state === 'pending')
    return (
      <Text size="xs" c="dimmed">
        Requesting a certificate…
      </Text>
    );
  const valid = status.validUntil
    ? `Certificate valid until ${exactTime(status.validUntil)}${coverage(status.names, status.issuer)}`
    : null;
  if (!status.lastError)
    return (
      <Text size="xs" c="dimmed">
        {valid ?? 'Certificate requested'} · renewed automatically 30 days before it ends
      </Text>
    );
  return (
    <Alert
      color={status.state === 'failed' ? 'red' : 'orange'}
      icon={<IconAlertTriangle size={16} />}
      title={status.state === 'failed' ? 'No certificate could be obtained' : 'The last renewal failed'}
    >
      <Text size="sm" style={{ wordBreak: 'break-word' }}>
        {status.lastError}
      </Text>
      <Group justify="space-between" align="center" gap="xs" mt={4}>
        <Text size="xs" c="dimmed">
          {[valid, status.nextAttemptAt ? `Next attempt ${exactTime(status.nextAttemptAt)}` : null]
            .filter(Boolean)
            .join(' · ')}
        </Text>
        {retry}
      </Group>
    </Alert>
  );
}
