import { Button, Group, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api } from '@wharf/contract';
import { apiQuery } from '../../lib/api.ts';
import { isSignInProvider, providerLinkUrl } from '../auth/providers.ts';
import { useProviderLook } from '../auth/useProviderLook.ts';

/**
 * One 'Connect {Provider}' per provider this installation offers that the user has no account of
 * yet. Each is a real form post: the server answers with a redirect to the provider, which sends
 * the browser back to this page.
 */
export function ConnectAccountButtons({ connected }: { connected: string[] }) {
  const look = useProviderLook();
  const methods = useQuery(apiQuery(api.getAuthMethods));
  const offered = methods.data?.filter((method) => isSignInProvider(method) && !connected.includes(method)) ?? [];
  if (offered.length === 0) return null;
  return (
    <Group gap="sm">
      <Text size="sm" c="dimmed" w="100%">
        Connect another account to sign in with it too:
      </Text>
      {offered.map((provider) => {
        const { label, icon: Icon } = look(provider);
        return (
          <form key={provider} method="post" action={providerLinkUrl(provider)}>
            <Button type="submit" variant="default" size="sm" leftSection={<Icon size={16} />}>
              Connect {label}
            </Button>
          </form>
        );
      })}
    </Group>
  );
}
