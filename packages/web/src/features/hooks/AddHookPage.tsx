import { Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { HookBody } from '@wharf/contract';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { BackLink } from '../../components/BackLink.tsx';
import { call } from '../../lib/api.ts';
import { notifyFailure } from '../../lib/notify.ts';
import { HookForm, hookValues } from './HookForm.tsx';
import { type HookScreens, hookApi } from './hookApi.ts';

/** {context}/hooks/add: a new hook, its web secret prefilled. */
export function AddHookPage({ context, ownerId, base }: HookScreens) {
  const { routes, owner } = hookApi(context, ownerId);
  const client = useQueryClient();
  const navigate = useNavigate();
  const [initialValues] = useState(() => hookValues());
  const create = useMutation({
    mutationFn: (body: HookBody) => call(routes.create, { params: owner, body }),
    onSuccess: async (hook) => {
      await client.invalidateQueries({ queryKey: [routes.list.path] });
      navigate(`${base}/${hook._id}`);
    },
    onError: (error) => notifyFailure('create hook', error),
  });
  return (
    <>
      <BackLink to={base} label="Hooks" />
      <Title order={2} size="h3" mb="md">
        Add hook
      </Title>
      <HookForm
        context={context}
        ownerId={ownerId}
        initialValues={initialValues}
        submitLabel="Create hook"
        submitting={create.isPending}
        onSubmit={(body) =>
          create.mutateAsync(body).then(
            () => true,
            () => false,
          )
        }
      />
    </>
  );
}
