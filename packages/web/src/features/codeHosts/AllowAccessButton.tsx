import { Button } from '@mantine/core';
import type { CodeHost } from '@wharf/contract';
import { useLocation } from 'react-router';
import { useProviderLook } from '../auth/useProviderLook.ts';
import { repositoryAccessUrl } from './codeHostQueries.ts';

/**
 * A real form post to the code host's flow (a full-page redirect there and back): it asks for the
 * repository scopes and comes back to this page with ?repositories={provider}.
 */
export function AllowAccessButton({ provider, label }: { provider: CodeHost; label?: string }) {
  const look = useProviderLook()(provider);
  const { pathname } = useLocation();
  return (
    <form method="post" action={repositoryAccessUrl(provider)}>
      <input type="hidden" name="returnTo" value={pathname} />
      <Button type="submit" variant="default" size="sm" leftSection={<look.icon size={16} />}>
        {label ?? `List my ${look.label} repositories`}
      </Button>
    </form>
  );
}
