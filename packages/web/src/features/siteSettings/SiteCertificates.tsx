import { Badge, Card, Code, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api, type Site } from '@wharf/contract';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { apiQuery } from '../../lib/api.ts';
import { useSystemEnv } from '../../lib/systemEnv.ts';
import { AcmeStatus } from './AcmeStatus.tsx';
import { RetryCertificateButton } from './RetryCertificateButton.tsx';

/**
 * The certificates Wharf obtained for the site's own addresses (its host, its branches' hosts or
 * the wildcards over them, and the wildcard every site shares), failed ones first; its custom
 * domains show theirs with the domain. Nothing when the installation obtains no certificates.
 */
export function SiteCertificates({ site }: { site: Site }) {
  const httpsAuto = useSystemEnv().data?.features.httpsAuto === true;
  const certificates = useQuery({
    ...apiQuery(api.listSiteCertificates, { params: { siteId: site._id } }),
    enabled: httpsAuto,
  });
  if (!httpsAuto) return null;
  if (certificates.isError) return <ErrorPanel title="Could not list certificates" query={certificates} />;
  const domains = new Set(site.domains.map((domain) => domain.name));
  const own = (certificates.data ?? []).filter((certificate) => !domains.has(certificate.name));
  if (own.length === 0) return null;
  return (
    <Card>
      <Stack gap="md">
        <Stack gap={2}>
          <Title order={2} size="h4">
            HTTPS certificates
          </Title>
          <Text size="xs" c="dimmed">
            Requested at each address's first HTTPS visit, and renewed automatically.
          </Text>
        </Stack>
        {own.map((certificate) => (
          <Stack key={certificate.name} gap={4} aria-label={`Certificate of ${certificate.name}`}>
            <Group gap="xs">
              <Code fz="sm" style={{ overflowWrap: 'anywhere' }}>
                {certificate.name}
              </Code>
              {certificate.shared && (
                <Badge variant="light" color="gray" size="sm">
                  Shared by every site
                </Badge>
              )}
            </Group>
            <AcmeStatus
              status={certificate}
              retry={certificate.shared ? null : <RetryCertificateButton site={site} name={certificate.name} />}
            />
          </Stack>
        ))}
      </Stack>
    </Card>
  );
}
