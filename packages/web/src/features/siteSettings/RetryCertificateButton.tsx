import { Button } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Site } from '@wharf/contract';
import { apiQuery, call } from '../../lib/api.ts';
import { notifyFailure, notifySuccess } from '../../lib/notify.ts';
import { useCanManageSite } from '../sites/useCanManageSite.ts';

/**
 * Orders a failed certificate again now, for whoever fixed what made it fail (DNS, a firewall):
 * no waiting out the back-off. The outcome shows in the certificate's state; only the site's
 * managers see the button.
 */
export function RetryCertificateButton({ site, name }: { site: Site; name: string }) {
  const client = useQueryClient();
  const siteId = site._id;
  const retry = useMutation({
    mutationFn: () => call(api.retrySiteCertificate, { params: { siteId, name } }),
    onSuccess: (certificate) => {
      if (certificate.state === 'valid' && !certificate.lastError) notifySuccess(`Certificate obtained for ${name}`);
    },
    onError: (error) => notifyFailure('retry certificate', error),
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: apiQuery(api.getSite, { params: { siteId } }).queryKey }),
        client.invalidateQueries({ queryKey: apiQuery(api.listSiteCertificates, { params: { siteId } }).queryKey }),
      ]),
  });
  if (useCanManageSite(site) !== true) return null;
  return (
    <Button size="compact-xs" variant="light" loading={retry.isPending} onClick={() => retry.mutate()}>
      Retry now
    </Button>
  );
}
