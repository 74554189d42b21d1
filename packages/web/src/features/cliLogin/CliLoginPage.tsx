import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Center,
  Group,
  Skeleton,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { IconCircleCheck, IconCircleX, IconHome, IconTerminal2 } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, CLI_TOKEN_DAYS, type CliLogin } from '@wharf/contract';
import { Link, useParams } from 'react-router';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { Expiry } from '../../components/Expiry.tsx';
import { apiQuery, call } from '../../lib/api.ts';
import { failureMessage } from '../../lib/notify.ts';
import { isPast } from '../../lib/time.ts';

function HomeLink() {
  return (
    <Button component={Link} to="/" variant="light" size="xs" leftSection={<IconHome size={14} />}>
      Go home
    </Button>
  );
}

/** What became of a request that is no longer waiting. */
function Answered({ request }: { request: CliLogin }) {
  if (request.state === 'cancelled')
    return (
      <Alert variant="light" color="gray" icon={<IconCircleX />} ta="left" w="100%">
        Cancelled: the terminal was told, and got no token.
      </Alert>
    );
  return (
    <Alert variant="light" color="teal" icon={<IconCircleCheck />} ta="left" w="100%">
      Approved: the terminal {request.state === 'claimed' ? 'has' : 'gets'} its token, "CLI on {request.machine}". You
      can close this page, and delete the token any time in{' '}
      <Anchor component={Link} to="/user/api-tokens" inherit>
        your API tokens
      </Anchor>
      .
    </Alert>
  );
}

function Request({ request }: { request: CliLogin }) {
  const client = useQueryClient();
  const { queryKey } = apiQuery(api.getCliLogin, { params: { cliLoginId: request._id } });
  const answer = (route: typeof api.approveCliLogin | typeof api.cancelCliLogin) => ({
    mutationFn: () => call(route, { params: { cliLoginId: request._id } }),
    onSuccess: async (answered: CliLogin) => {
      client.setQueryData(queryKey, answered);
      await client.invalidateQueries({ queryKey: [api.listApiTokens.path] });
    },
  });
  const approve = useMutation(answer(api.approveCliLogin));
  const cancel = useMutation(answer(api.cancelCliLogin));
  const expired = isPast(request.expiresAt);
  const pending = request.state === 'pending';
  const busy = approve.isPending || cancel.isPending;

  return (
    <Stack align="center" ta="center" gap="md">
      <ThemeIcon size={56} radius="xl" variant="light">
        <IconTerminal2 size={28} />
      </ThemeIcon>
      <Title order={1} size="h2">
        Sign in from a terminal
      </Title>
      <Text c="dimmed" size="sm">
        The wharf command asks to act as you, from
      </Text>
      <Text fw={700} fz="lg" style={{ overflowWrap: 'anywhere' }}>
        {request.machine}
      </Text>
      <Text c="dimmed" size="xs">
        at the address {request.address}
      </Text>
      <Stack gap={4} align="center">
        <Text size="sm">Confirmation code</Text>
        <Text ff="monospace" fw={700} fz={28} lts={2} aria-label="Confirmation code">
          {request.code}
        </Text>
      </Stack>
      {pending && (
        <Text size="sm" c="dimmed">
          Approve only if you started this sign-in yourself, just now, and your terminal shows the same code. The
          terminal gets a token to upload releases and manage branches as you, for {CLI_TOKEN_DAYS} days.
        </Text>
      )}
      {pending && (
        <Group gap="xs" justify="center">
          <Badge variant="dot" color={expired ? 'red' : 'blue'}>
            waiting for approval
          </Badge>
          <Expiry at={request.expiresAt} expired={expired} />
        </Group>
      )}
      {!pending && <Answered request={request} />}
      {approve.error && (
        <Alert color="red" variant="light" role="alert" w="100%" ta="left">
          {failureMessage('approve sign-in', approve.error)}
        </Alert>
      )}
      {cancel.error && (
        <Alert color="red" variant="light" role="alert" w="100%" ta="left">
          {failureMessage('cancel sign-in', cancel.error)}
        </Alert>
      )}
      {pending && (
        <Group justify="center" mt="xs">
          <Button
            variant="default"
            disabled={expired || approve.isPending}
            loading={cancel.isPending}
            onClick={() => cancel.mutate()}
          >
            Cancel
          </Button>
          <Button disabled={expired || busy} loading={approve.isPending} onClick={() => approve.mutate()}>
            Approve
          </Button>
        </Group>
      )}
    </Stack>
  );
}

/** /cli-login/{id}: a signed-in person approves or cancels a sign-in of the wharf command (`wharf login`). */
export function CliLoginPage() {
  const { cliLoginId = '' } = useParams();
  const request = useQuery({ ...apiQuery(api.getCliLogin, { params: { cliLoginId } }), retry: false });
  return (
    <Center py="xl">
      <Card w="100%" maw={520} p="xl">
        {request.error ? (
          <ErrorPanel title="Could not open this sign-in request" query={request} actions={<HomeLink />} />
        ) : request.data ? (
          <Request request={request.data} />
        ) : (
          <Skeleton h={320} />
        )}
      </Card>
    </Center>
  );
}
