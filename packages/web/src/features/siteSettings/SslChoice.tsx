import { Radio, Stack, Text } from '@mantine/core';
import type { SslConfiguration } from '@wharf/contract';

type SslType = SslConfiguration['type'];

/** What each SSL type means for the person choosing it, in the order they are offered. */
const choices: { value: SslType; label: string; description: string }[] = [
  {
    value: 'acme',
    label: 'Automatic (ACME)',
    description: 'Wharf requests a certificate for this domain and renews it.',
  },
  {
    value: 'external',
    label: 'Terminated elsewhere, or none',
    description:
      'A proxy or load balancer in front of Wharf holds the certificate, or the domain is served over plain HTTP. Nothing to paste.',
  },
  {
    value: 'manual',
    label: 'Certificate of your own',
    description: 'Paste the certificate chain and its RSA private key (PEM).',
  },
];

/**
 * The SSL choice of one domain. Automatic HTTPS is offered only where the installation has it
 * (spec.md §4), but a domain that already has it keeps seeing its own choice.
 */
export function SslChoice({
  value,
  onChange,
  httpsAuto,
}: {
  value: SslType;
  onChange: (value: SslType) => void;
  httpsAuto: boolean;
}) {
  const offered = choices.filter((choice) => choice.value !== 'acme' || httpsAuto || value === 'acme');
  return (
    <Radio.Group
      label="SSL"
      description="Who holds the certificate of this domain"
      value={value}
      onChange={(next) => onChange(next as SslType)}
    >
      <Stack gap="xs" mt="xs">
        {offered.map((choice) => (
          <Radio key={choice.value} value={choice.value} label={choice.label} description={choice.description} />
        ))}
        {value === 'acme' && !httpsAuto && (
          <Text size="xs" c="orange">
            Automatic HTTPS is not enabled on this installation: no certificate is requested for this domain.
          </Text>
        )}
      </Stack>
    </Radio.Group>
  );
}
