import { Group, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { RemoveRowButton, RowsEditor } from '../../components/RowsEditor.tsx';
import { useSystemEnv } from '../../lib/systemEnv.ts';
import { AcmeStatus } from './AcmeStatus.tsx';
import { CertificateExpiry } from './CertificateExpiry.tsx';
import { newDomain, type SiteValues } from './domainValues.ts';
import { SslChoice } from './SslChoice.tsx';

/** The custom domains of a site: each serves the main branch, and `{branch}.{domain}` when branches are exposed. */
export function DomainsEditor({ form }: { form: UseFormReturnType<SiteValues> }) {
  const env = useSystemEnv();
  const httpsAuto = env.data?.features.httpsAuto ?? false;
  return (
    <Stack gap="sm">
      <Stack gap={2}>
        <Text fw={500} size="sm">
          Domains
        </Text>
        <Text size="xs" c="dimmed">
          Point each domain's DNS at this Wharf; it then serves the main branch.
        </Text>
      </Stack>
      <RowsEditor
        noun="domain"
        rows={form.values.domains}
        onAdd={() => form.insertListItem('domains', newDomain(httpsAuto))}
        onRemove={(index) => form.removeListItem('domains', index)}
        renderRow={(domain, index, removal) => (
          <Stack gap="sm">
            <Group align="flex-start" wrap="nowrap" gap="xs">
              <TextInput
                label="Domain name"
                placeholder="www.example.com"
                withAsterisk
                style={{ flex: 1 }}
                {...form.getInputProps(`domains.${index}.name`)}
              />
              <RemoveRowButton {...removal} size="lg" mt={26} />
            </Group>
            <Switch
              label="Expose branches"
              description={`Serve each branch at {branch}.${domain.name || 'domain'}`}
              {...form.getInputProps(`domains.${index}.exposeBranches`, { type: 'checkbox' })}
            />
            <SslChoice
              value={domain.sslType}
              onChange={(type) => form.setFieldValue(`domains.${index}.sslType`, type)}
              httpsAuto={httpsAuto}
            />
            {/* The status of the saved domain, while the form still names it. */}
            {domain.sslType === 'acme' && httpsAuto && (
              <AcmeStatus status={domain.name === domain.savedName ? domain.acmeStatus : undefined} />
            )}
            {domain.sslType === 'manual' && (
              <>
                <Textarea
                  label="Certificate"
                  description="The full chain, PEM (-----BEGIN CERTIFICATE-----…)"
                  withAsterisk
                  autosize
                  minRows={3}
                  maxRows={8}
                  styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
                  {...form.getInputProps(`domains.${index}.fullchain`)}
                />
                {/* What the server read from the saved chain: shown while that chain is still the one in the form. */}
                {domain.saved && domain.saved.chain === domain.fullchain && (
                  <CertificateExpiry certificate={domain.saved.certificate} />
                )}
                <Textarea
                  label="Private key"
                  description={
                    domain.privateKeySaved
                      ? 'Saved, and never shown again. Paste a new RSA key (PEM) only to replace it.'
                      : 'The RSA private key, PEM (-----BEGIN PRIVATE KEY-----…)'
                  }
                  placeholder={domain.privateKeySaved ? 'Saved key kept' : undefined}
                  withAsterisk={!domain.privateKeySaved}
                  autosize
                  minRows={3}
                  maxRows={8}
                  styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
                  {...form.getInputProps(`domains.${index}.privateKey`)}
                />
              </>
            )}
          </Stack>
        )}
      />
    </Stack>
  );
}
