import { Alert, Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { api, type RouteBody } from '@wharf/contract';
import { call } from '../../lib/api.ts';
import { loadChunk } from '../../lib/chunks.ts';
import { validateWithLazySchema } from '../../lib/form.ts';
import { errorText } from '../../lib/notify.ts';
import { useSetUser } from '../../lib/session.ts';

/** The in-memory method: a user name and a password. */
export function InMemorySignIn() {
  const setUser = useSetUser();
  const form = useForm({ initialValues: { user: '', password: '' } });
  const rules = () => loadChunk(() => import('./signInRules.ts')).then((m) => m.signInBody);
  const signIn = useMutation({
    mutationFn: (body: RouteBody<typeof api.signInInMemory>) => call(api.signInInMemory, { body }),
    onSuccess: (user) => setUser(user),
  });
  return (
    <form
      onSubmit={form.onSubmit(async (values) => {
        if (await validateWithLazySchema(form, rules)) signIn.mutate(values);
      })}
      noValidate
    >
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
        {/* Under the form, where the eyes are after pressing Sign in, rather than in a passing toast. */}
        {signIn.error && (
          <Alert color="red" variant="light" role="alert" title="Could not sign in">
            {errorText(signIn.error)}
          </Alert>
        )}
      </Stack>
    </form>
  );
}
