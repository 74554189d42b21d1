import { Avatar, Badge, Button, Group, Tooltip } from '@mantine/core';
import type { Identity } from '@wharf/contract';
import { ListRow, RowDetail } from '../../components/ListRow.tsx';
import { exactTime, relativeTime } from '../../lib/time.ts';
import { useProviderLook } from '../auth/useProviderLook.ts';

const ONLY_ACCOUNT = 'Your only sign-in account cannot be disconnected';

function DisconnectButton({ only, busy, onClick }: { only: boolean; busy: boolean; onClick: () => void }) {
  if (!only)
    return (
      <Button size="xs" color="red" variant="light" loading={busy} onClick={onClick}>
        Disconnect
      </Button>
    );
  // Not `disabled`: a disabled button takes neither pointer nor focus, and the tooltip needs both.
  return (
    <Tooltip label={ONLY_ACCOUNT} withArrow multiline w={220} events={{ hover: true, focus: true, touch: true }}>
      <Button
        size="xs"
        color="red"
        variant="light"
        data-disabled
        aria-disabled="true"
        onClick={(event) => event.preventDefault()}
      >
        Disconnect
      </Button>
    </Tooltip>
  );
}

/** One account the user signs in with: who it is at the provider, and since when. */
export function IdentityRow({
  identity,
  only,
  busy,
  onDisconnect,
}: {
  identity: Identity;
  /** The user's only account: disconnecting it would leave no way to sign in. */
  only: boolean;
  busy: boolean;
  onDisconnect: () => void;
}) {
  const { label, icon: Icon } = useProviderLook()(identity.provider);
  const who = [identity.login, identity.name !== identity.login ? identity.name : null, identity.email];
  return (
    <ListRow
      label={`${label} account ${identity.login}`}
      wrapActions
      leading={<Avatar src={identity.avatarUrl} name={identity.name} color="initials" radius="xl" alt="" />}
      title={
        <Group component="span" gap={6} wrap="nowrap">
          <Icon size={16} aria-hidden />
          {label}
        </Group>
      }
      badges={
        identity.current && (
          <Badge size="sm" variant="light" color="teal">
            This session
          </Badge>
        )
      }
      details={
        <>
          <RowDetail>{who.filter(Boolean).join(' · ')}</RowDetail>
          <RowDetail truncate={false}>
            <span title={exactTime(identity.createdAt)}>Connected {relativeTime(identity.createdAt)}</span>
            {' · '}
            {identity.lastSignInAt ? (
              <span title={exactTime(identity.lastSignInAt)}>Last sign-in {relativeTime(identity.lastSignInAt)}</span>
            ) : (
              'Never signed in'
            )}
          </RowDetail>
        </>
      }
      actions={<DisconnectButton only={only} busy={busy} onClick={onDisconnect} />}
    />
  );
}
