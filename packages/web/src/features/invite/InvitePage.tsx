import { Alert, Badge, Button, Card, Center, Group, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconHome, IconLinkOff, IconMailOpened, IconShieldCheck, IconUserCheck } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type ReceivedInvite } from '@wharf/contract';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { EntityAvatar } from '../../components/EntityAvatar.tsx';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { Expiry } from '../../components/Expiry.tsx';
import { apiQuery, call } from '../../lib/api.ts';
import { useCurrentOrgState } from '../../lib/currentOrg.tsx';
import { failureMessage } from '../../lib/notify.ts';
import { isPast } from '../../lib/time.ts';

/** An invitation that cannot be used leaves the visitor a way on into the console. */
function HomeLink() {
  return (
    <Button component={Link} to="/" variant="light" size="xs" leftSection={<IconHome size={14} />}>
      Go home
    </Button>
  );
}

function NoToken() {
  return (
    <Stack align="center" ta="center" gap="xs">
      <ThemeIcon size={56} radius="xl" variant="light" color="gray">
        <IconLinkOff size={28} />
      </ThemeIcon>
      <Title order={1} size="h3">
        No token found
      </Title>
      <Text c="dimmed" size="sm">
        The address of an invitation contains a token, like /invite?token=…. Open the link you received again, or ask
        for a new invitation.
      </Text>
      <HomeLink />
    </Stack>
  );
}

function Invitation({ invite, token, isMember }: { invite: ReceivedInvite; token: string; isMember: boolean }) {
  const navigate = useNavigate();
  const client = useQueryClient();
  const { select } = useCurrentOrgState();
  const expired = isPast(invite.expiresAt);
  const accept = useMutation({
    mutationFn: () => call(api.acceptInvite, { params: { inviteId: invite._id }, body: { token } }),
    onSuccess: async (org) => {
      await client.invalidateQueries({ queryKey: [api.listOrgs.path] });
      await select(org._id);
    },
  });
  const decline = useMutation({
    mutationFn: () => call(api.declineInvite, { params: { inviteId: invite._id }, body: { token } }),
    onSuccess: () => navigate('/'),
  });
  const failure = accept.error ?? decline.error;

  return (
    <Stack align="center" ta="center" gap="md">
      <ThemeIcon size={56} radius="xl" variant="light">
        <IconMailOpened size={28} />
      </ThemeIcon>
      <Title order={1} size="h2">
        You're invited !
      </Title>
      <Text c="dimmed" size="sm">
        to join the workspace
      </Text>
      <Group gap="sm" wrap="nowrap">
        <EntityAvatar name={invite.org.name} color={invite.org.color} logo={invite.org.logo} size={40} />
        <Text fw={700} fz="xl">
          {invite.org.name}
        </Text>
      </Group>
      {invite.memberOptions.admin && !isMember && (
        <Alert variant="light" icon={<IconShieldCheck />} ta="left">
          You will be an admin of this workspace: you will manage its settings, staff, teams and sites.
        </Alert>
      )}
      <Group gap="xs">
        <Badge variant="dot" color={expired ? 'red' : 'blue'}>
          pending invitation
        </Badge>
        <Expiry at={invite.expiresAt} expired={expired} />
      </Group>
      {isMember && (
        <Alert variant="light" color="teal" icon={<IconUserCheck />} ta="left" w="100%">
          You are already a member of {invite.org.name}: there is nothing to accept.
        </Alert>
      )}
      {failure && (
        <Alert color="red" variant="light" role="alert" w="100%" ta="left">
          {failureMessage('delete invite', failure)}
        </Alert>
      )}
      <Group justify="center" mt="xs">
        <Button
          variant="default"
          disabled={expired || accept.isPending}
          loading={decline.isPending}
          onClick={() => decline.mutate()}
        >
          Decline
        </Button>
        {isMember ? (
          <Button disabled={decline.isPending} onClick={() => void select(invite.org._id)}>
            Open {invite.org.name}
          </Button>
        ) : (
          <Button disabled={expired || decline.isPending} loading={accept.isPending} onClick={() => accept.mutate()}>
            Accept
          </Button>
        )}
      </Group>
    </Stack>
  );
}

function InviteLoader({ token }: { token: string }) {
  const invite = useQuery({ ...apiQuery(api.getInvite, { params: { token }, body: { token } }), retry: false });
  const orgs = useQuery(apiQuery(api.listOrgs));
  if (invite.error) return <ErrorPanel title="Could not open this invitation" query={invite} actions={<HomeLink />} />;
  if (!invite.data || orgs.isPending) return <Skeleton h={280} />;
  // When the organizations cannot be listed, Accept stays: the server refuses a second membership anyway.
  const isMember = orgs.data?.some((org) => org._id === invite.data.org._id) ?? false;
  return <Invitation invite={invite.data} token={token} isMember={isMember} />;
}

/** /invite?token=…: accept or decline an invitation to an organization. */
export function InvitePage() {
  const [search] = useSearchParams();
  const token = search.get('token');
  return (
    <Center py="xl">
      <Card w="100%" maw={520} p="xl">
        {token ? <InviteLoader token={token} /> : <NoToken />}
      </Card>
    </Center>
  );
}
