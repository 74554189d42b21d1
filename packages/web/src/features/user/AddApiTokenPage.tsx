import { Anchor, Group, Text } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@wharf/contract';
import { Link, useNavigate } from 'react-router';
import { call } from '../../lib/api.ts';
import { notifyFailure } from '../../lib/notify.ts';
import { ApiTokenForm, type ApiTokenValues, toIso } from './ApiTokenForm.tsx';

/** /user/api-tokens/add: creates a token, then shows it. */
export function AddApiTokenPage() {
  const client = useQueryClient();
  const navigate = useNavigate();
  const create = useMutation({
    mutationFn: (values: ApiTokenValues) =>
      call(api.createApiToken, {
        // spec.md §7: the create call spells the activation date `activesAt`.
        body: {
          name: values.name,
          activesAt: toIso(values.activatesAt) ?? undefined,
          expiresAt: toIso(values.expiresAt),
          scopes: values.scopes,
        },
      }),
    onSuccess: async (token) => {
      await client.invalidateQueries({ queryKey: [api.listApiTokens.path] });
      navigate(`/user/api-tokens/${token._id}`);
    },
    onError: (error) => notifyFailure('create api token', error),
  });
  return (
    <>
      <Group mb="md" gap="xs">
        <Anchor component={Link} to="/user/api-tokens" size="sm">
          <Group gap={4} component="span">
            <IconArrowLeft size={14} aria-hidden />
            API tokens
          </Group>
        </Anchor>
        <Text size="sm" c="dimmed">
          / New token
        </Text>
      </Group>
      <ApiTokenForm
        initialValues={{ name: '', activatesAt: null, expiresAt: null, scopes: [] }}
        submitLabel="Create token"
        submitting={create.isPending}
        requireChange={false}
        onSubmit={(values) =>
          create.mutateAsync(values).then(
            () => true,
            () => false,
          )
        }
      />
    </>
  );
}
