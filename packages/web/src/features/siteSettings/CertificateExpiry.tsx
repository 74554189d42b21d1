import { Alert, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { countOf } from '../../lib/plural.ts';
import { exactTime } from '../../lib/time.ts';
import { expiryOf } from './certificateExpiry.ts';

/** ` · covers {names} · issued by {issuer}`, as far as they are known. */
export function coverage(names: string[], issuer: string | null) {
  return `${names.length > 0 ? ` · covers ${names.join(', ')}` : ''}${issuer ? ` · issued by ${issuer}` : ''}`;
}

/**
 * What a saved manual certificate covers and until when, read by the server from its chain; an
 * alert from 14 days before its end, so a renewed one can be pasted before browsers refuse it.
 */
export function CertificateExpiry({
  certificate,
}: {
  certificate: { expiresAt: string; names: string[]; issuer?: string | null };
}) {
  const { state, days } = expiryOf(certificate.expiresAt);
  const until = exactTime(certificate.expiresAt);
  const covers = coverage(certificate.names, certificate.issuer ?? null);
  if (state === 'valid')
    return (
      <Text size="xs" c="dimmed">
        Saved certificate valid until {until}
        {covers}
      </Text>
    );
  return (
    <Alert
      color={state === 'expired' ? 'red' : 'orange'}
      icon={<IconAlertTriangle size={16} />}
      title={state === 'expired' ? `Expired on ${until}` : `Expires in ${countOf(days, 'day')}`}
    >
      {state === 'expired'
        ? 'Browsers refuse this domain over HTTPS: paste a renewed certificate and its key.'
        : `Valid until ${until}: paste a renewed certificate before then.`}
      {covers && (
        <Text size="xs" c="dimmed" mt={4}>
          {covers.slice(3)}
        </Text>
      )}
    </Alert>
  );
}
