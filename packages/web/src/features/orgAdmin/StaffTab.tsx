import { Stack } from '@mantine/core';
import { InvitesCard } from './InvitesCard.tsx';
import { MembersCard } from './MembersCard.tsx';

export function StaffTab() {
  return (
    <Stack gap="lg">
      <InvitesCard />
      <MembersCard />
    </Stack>
  );
}
