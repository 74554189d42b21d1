import { Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { api, type RouteBody } from '@wharf/contract';
import { call } from '../../lib/api.ts';
import { contractResolver } from '../../lib/form.ts';
import { notifyFailure } from '../../lib/notify.ts';
import { useSetUser } from './session.ts';

/** The in-memory method: a user name and a password. */
export function InMemorySignIn() {
  const setUser = useSetUser();
  const form = useForm({
    initialValues: { user: '', password: '' },
    validate: contractResolver(api.signInInMemory.body!),
  });
  const signIn = useMutation({
    mutationFn: (body: RouteBody<typeof api.signInInMemory>) => call(api.signInInMemory, { body }),
    onSuccess: (user) => setUser(user),
    onError: (error) => notifyFailure('sign in', error),
  });
  return (
    <form onSubmit={form.onSubmit((values) => signIn.mutate(values))} noValidate>
      <Stack gap="sm">
        <TextInput label="User" autoComplete="username" withAsterisk {...form.getInputProps('user')} />
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          withAsterisk
          {...form.getInputProps('password')}
        />
        <Button type="submit" loading={signIn.isPending} fullWidth mt="xs">
          Sign in
        </Button>
      </Stack>
    </form>
  );
}
