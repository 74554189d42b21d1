import { Group, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { Site } from '@wharf/contract';
import { RemoveRowButton, RowsEditor } from '../../components/RowsEditor.tsx';
import { useSystemEnv } from '../../lib/systemEnv.ts';
import { AcmeStatus } from './AcmeStatus.tsx';
import { CertificateExpiry } from './CertificateExpiry.tsx';
import { DomainDns } from './DomainDns.tsx';
import { DomainOwnership } from './DomainOwnership.tsx';
import { newDomain, type SiteValues } from './domainValues.ts';
import { RetryCertificateButton } from './RetryCertificateButton.tsx';
import { SslChoice } from './SslChoice.tsx';

/** The custom domains of a site: each serves the main branch, and `{branch}.{domain}` when branches are exposed. */
export function DomainsEditor({ form, site }: { form: UseFormReturnType<SiteValues>; site: Site }) {
  const env = useSystemEnv();
  const httpsAuto = env.data?.features.httpsAuto ?? false;
  return (
    <Stack gap="sm">
      <Stack gap={2}>
        <Text fw={500} size="sm">
          Domains
        </Text>
        <Text size="xs" c="dimmed">
          Point each domain's DNS at this Wharf (the records show once it is saved); once verified, it serves the main
          branch.
        </Text>
      </Stack>
      <RowsEditor
        noun="domain"
        rows={form.values.domains}
        onAdd={() => form.insertListItem('domains', newDomain(httpsAuto))}
        onRemove={(index) => form.removeListItem('domains', index)}
        renderRow={(domain, index, removal) => {
          // Ownership belongs to the saved domain of this name, and is shown while the row keeps that name.
          const saved = site.domains.find((entry) => entry.name === domain.name);
          const ownership = saved?.ownership;
          const acmeStatus = saved?.sslConfiguration.type === 'acme' ? saved.sslConfiguration.status : undefined;
          return (
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
              {ownership && <DomainOwnership siteId={site._id} name={domain.name} ownership={ownership} />}
              {saved && <DomainDns siteId={site._id} name={saved.name} />}
              <Switch
                label="Primary domain"
                description={`The main branch's other addresses redirect here (301), once ${domain.name || 'it'} is verified`}
                checked={domain.primary}
                onChange={(event) => {
                  const chosen = event.currentTarget.checked;
                  // One primary domain: choosing this one unchooses the others.
                  form.values.domains.forEach((_, other) => {
                    form.setFieldValue(`domains.${other}.primary`, other === index ? chosen : false);
                  });
                }}
              />
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
              {domain.sslType === 'acme' && httpsAuto && (
                <AcmeStatus status={acmeStatus} retry={<RetryCertificateButton site={site} name={domain.name} />} />
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
          );
        }}
      />
    </Stack>
  );
}
