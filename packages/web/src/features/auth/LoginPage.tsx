import {
  Box,
  Button,
  Center,
  Divider,
  Group,
  Loader,
  Paper,
  Stack,
  Text,
  ThemeIcon,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { api } from '@wharf/contract';
import { useSearchParams } from 'react-router';
import { ColorSchemeToggle } from '../../app/shell/ColorSchemeToggle.tsx';
import { Footer } from '../../app/shell/Footer.tsx';
import { Brand } from '../../components/Brand.tsx';
import { apiQuery } from '../../lib/api.ts';
import { errorText } from '../../lib/notify.ts';
import { InMemorySignIn } from './InMemorySignIn.tsx';
import classes from './LoginPage.module.css';
import { isSignInProvider, providerSignInUrl } from './providers.ts';
import { SignInErrorAlert } from './SignInErrorAlert.tsx';
import { useProviderLook } from './useProviderLook.ts';

function SignInMethods() {
  const look = useProviderLook();
  const methods = useQuery(apiQuery(api.getAuthMethods));
  if (methods.isPending) return <Loader mx="auto" aria-label="Loading the sign-in methods" />;
  if (methods.error)
    return (
      <Center>
        <Tooltip
          label={`Could not load the sign-in methods: ${errorText(methods.error)}`}
          withArrow
          multiline
          w={260}
          events={{ hover: true, focus: true, touch: true }}
        >
          <ThemeIcon
            color="red"
            variant="light"
            size="xl"
            radius="xl"
            tabIndex={0}
            aria-label="The sign-in methods could not be loaded"
          >
            <IconAlertCircle />
          </ThemeIcon>
        </Tooltip>
      </Center>
    );
  const buttons = methods.data.filter(isSignInProvider);
  const inMemory = methods.data.includes('in-memory');
  if (!inMemory && buttons.length === 0)
    return (
      <Text c="dimmed" ta="center" size="sm">
        No sign-in method is configured on this installation.
      </Text>
    );
  return (
    <Stack gap="md">
      {buttons.map((method) => {
        const { label, icon: Icon } = look(method);
        return (
          <Button
            key={method}
            component="a"
            href={providerSignInUrl(method)}
            variant="default"
            size="md"
            leftSection={<Icon size={20} />}
            fullWidth
            classNames={{ root: classes.provider, label: classes.providerLabel }}
          >
            Sign in with {label}
          </Button>
        );
      })}
      {inMemory && buttons.length > 0 && <Divider label="or" labelPosition="center" />}
      {inMemory && <InMemorySignIn />}
    </Stack>
  );
}

/** Why the last sign-in through a provider was refused, when the server sent the browser back here. */
function RefusedSignIn() {
  const [search, setSearch] = useSearchParams();
  const code = search.get('error');
  if (!code) return null;
  return (
    <SignInErrorAlert code={code} provider={search.get('provider')} onClose={() => setSearch({}, { replace: true })} />
  );
}

/** /login: 'Shipping frontend', 'Deploy, now.' and the methods the server lists. */
export function LoginPage() {
  return (
    <Box className={classes.page}>
      <Box className={classes.hero} visibleFrom="md">
        <Brand size={34} />
        <Stack gap="xs" maw={440}>
          <Title order={2} className={classes.heroTitle}>
            Deploy, now.
          </Title>
          <Text className={classes.heroText}>
            Upload a build, get a URL for every branch, roll back in one click. Your static frontends, on your own
            machines.
          </Text>
        </Stack>
        <Text size="xs" className={classes.heroText}>
          Open source, self-hosted static hosting
        </Text>
      </Box>
      <Stack className={classes.panel} justify="space-between">
        <Group justify="space-between">
          <Box hiddenFrom="md">
            <Brand size={28} />
          </Box>
          <Box visibleFrom="md" />
          <ColorSchemeToggle />
        </Group>
        <Paper w="100%" maw={400} mx="auto" p="xl" withBorder shadow="sm" component="main">
          <Stack gap="lg">
            <Stack gap={4}>
              <Title order={1} size="h2">
                Shipping frontend
              </Title>
              <Text c="dimmed" size="sm" hiddenFrom="md">
                Deploy, now.
              </Text>
              <Text c="dimmed" size="sm" visibleFrom="md">
                Sign in to continue
              </Text>
            </Stack>
            <RefusedSignIn />
            <SignInMethods />
          </Stack>
        </Paper>
        <Footer />
      </Stack>
    </Box>
  );
}
