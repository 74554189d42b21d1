import { Text } from '@mantine/core';
import type { OrgMember } from '@wharf/contract';
import { useProviderLook } from '../auth/useProviderLook.ts';

type Invitation = NonNullable<OrgMember['invitation']>;

/**
 * Which account accepted an invitation: the invited address and the provider's account may
 * differ, and the admin who invited should be able to see that they do.
 */
export function MemberInvitation({ invitation }: { invitation: Invitation }) {
  const { label } = useProviderLook()(invitation.provider);
  const account = [invitation.login, invitation.providerEmail].filter(Boolean).join(', ');
  return (
    // Addresses have no spaces to break at: on a phone they break anywhere rather than overflow.
    <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
      Invited as {invitation.email} · accepted with {label} ({account})
    </Text>
  );
}
