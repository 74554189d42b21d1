import {
  ActionIcon,
  Button,
  Card,
  Code,
  Group,
  Modal,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { IconRefresh } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { BASIC_AUTH_USER, PASSWORD_SUGGESTION_LENGTH, passwordBody } from '@wharf/contract';
import { contractResolver } from '../lib/form.ts';
import { type FailedAction, notifyFailure } from '../lib/notify.ts';
import { randomString } from '../lib/random.ts';

function SetPasswordModal({
  opened,
  onClose,
  onSave,
  saving,
}: {
  opened: boolean;
  onClose: () => void;
  onSave: (password: string) => void;
  saving: boolean;
}) {
  const form = useForm({
    initialValues: { password: randomString(PASSWORD_SUGGESTION_LENGTH) },
    validate: contractResolver(passwordBody),
  });
  return (
    <Modal opened={opened} onClose={onClose} title="Set password">
      <form onSubmit={form.onSubmit(({ password }) => onSave(password))} noValidate>
        <Stack>
          <Text size="sm" c="dimmed">
            Browsers ask for it before showing anything. The user name is <Code>{BASIC_AUTH_USER}</Code>.
          </Text>
          <TextInput
            label="Password"
            description="A random suggestion: keep it or type your own"
            withAsterisk
            data-autofocus
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            rightSection={
              <Tooltip label="Suggest another" withArrow>
                <ActionIcon
                  variant="subtle"
                  aria-label="Suggest another"
                  onClick={() => form.setFieldValue('password', randomString(PASSWORD_SUGGESTION_LENGTH))}
                >
                  <IconRefresh size={16} />
                </ActionIcon>
              </Tooltip>
            }
            {...form.getInputProps('password')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={saving}>
              Set password
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * spec.md §4 'Branch and site password': turning protection on asks for a password (a random
 * 16-character suggestion); turning it off removes the password at once.
 */
export function PasswordProtection({
  subject,
  hasPassword,
  set,
  remove,
  failures,
  withoutOwn,
}: {
  /** 'site', 'branch' or 'release', as the texts name it. */
  subject: string;
  hasPassword: boolean;
  /** What visitors meet when it has no password of its own, when not "anyone can see it" (the site's password). */
  withoutOwn?: string;
  set: (password: string) => Promise<unknown>;
  remove: () => Promise<unknown>;
  failures: { set: FailedAction; remove: FailedAction };
}) {
  const [opened, { open, close }] = useDisclosure(false);
  const setPassword = useMutation({
    mutationFn: set,
    onSuccess: close,
    onError: (error) => notifyFailure(failures.set, error),
  });
  const removePassword = useMutation({
    mutationFn: remove,
    onError: (error) => notifyFailure(failures.remove, error),
  });
  return (
    <Card>
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Stack gap={4}>
          <Title order={2} size="h4">
            Password protection
          </Title>
          <Text size="sm" c="dimmed">
            {hasPassword
              ? `The ${subject} asks visitors for a password (user name ${BASIC_AUTH_USER}).`
              : (withoutOwn ?? `Anyone with the address can see the ${subject}.`)}
          </Text>
        </Stack>
        <Switch
          size="md"
          aria-label="Password protection"
          checked={hasPassword}
          disabled={setPassword.isPending || removePassword.isPending}
          onChange={(event) => (event.currentTarget.checked ? open() : removePassword.mutate())}
        />
      </Group>
      {opened && (
        <SetPasswordModal
          opened
          onClose={close}
          onSave={(password) => setPassword.mutate(password)}
          saving={setPassword.isPending}
        />
      )}
    </Card>
  );
}
