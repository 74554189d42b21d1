import { Badge, ThemeIcon } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconSend, IconSettings } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Hook, HookBody } from '@wharf/contract';
import { useEffect } from 'react';
import { Route, Routes, useNavigate, useParams } from 'react-router';
import { BackLink } from '../../components/BackLink.tsx';
import { DefaultTab } from '../../components/DefaultTab.tsx';
import { DeleteConfirm } from '../../components/DeleteConfirm.tsx';
import { DetailPage } from '../../components/DetailPage.tsx';
import { NotFound } from '../../components/NotFound.tsx';
import { DeleteMenuItem, PageMenu } from '../../components/PageMenu.tsx';
import { PageTitle } from '../../components/PageTitle.tsx';
import { RouteTabs } from '../../components/RouteTabs.tsx';
import { apiQuery, call } from '../../lib/api.ts';
import { notifyFailure } from '../../lib/notify.ts';
import { exactTime, relativeTime } from '../../lib/time.ts';
import { HookDeliveries } from './HookDeliveries.tsx';
import { HookForm, hookValues } from './HookForm.tsx';
import { type HookScreens, hookApi } from './hookApi.ts';
import { hookTypes } from './hookTypes.tsx';

function HookMenu({ hook, context, ownerId, base }: HookScreens & { hook: Hook }) {
  const { routes, one } = hookApi(context, ownerId);
  const [opened, { open, close }] = useDisclosure(false);
  const client = useQueryClient();
  const navigate = useNavigate();
  return (
    <>
      <PageMenu label="Hook actions">
        <DeleteMenuItem onClick={open} />
      </PageMenu>
      <DeleteConfirm
        opened={opened}
        onClose={close}
        title="Delete hook"
        failure="delete hook"
        remove={() => call(routes.remove, { params: one(hook._id) })}
        onDeleted={async () => {
          navigate(base);
          await client.invalidateQueries({ queryKey: [routes.list.path] });
        }}
      >
        Delete the hook <b>{hook.name || hookTypes[hook.type].label}</b>? It stops being called at once, and its
        deliveries are forgotten.
      </DeleteConfirm>
    </>
  );
}

function HookSettings({ hook, context, ownerId }: HookScreens & { hook: Hook }) {
  const { routes, one } = hookApi(context, ownerId);
  const client = useQueryClient();
  const update = useMutation({
    mutationFn: (body: HookBody) => call(routes.update, { params: one(hook._id), body }),
    onSuccess: async (saved) => {
      client.setQueryData(apiQuery(routes.get, { params: one(hook._id) }).queryKey, saved);
      await client.invalidateQueries({ queryKey: [routes.list.path] });
    },
    onError: (error) => notifyFailure('update hook', error),
  });
  return (
    <HookForm
      context={context}
      ownerId={ownerId}
      initialValues={hookValues(hook)}
      submitLabel="Save"
      submitting={update.isPending}
      requireChange
      onSubmit={(body) =>
        update.mutateAsync(body).then(
          () => true,
          () => false,
        )
      }
    />
  );
}

/** {context}/hooks/{hookId}: its Settings and Deliveries tabs, and Delete. */
export function HookPage(screens: HookScreens) {
  const { context, ownerId, base } = screens;
  const { hookId = '' } = useParams();
  const { routes, one } = hookApi(context, ownerId);
  const hook = useQuery(apiQuery(routes.get, { params: one(hookId) }));
  useEffect(() => {
    if (hook.error) notifyFailure('get hook', hook.error);
  }, [hook.error]);

  const back = <BackLink to={base} label="Hooks" />;
  return (
    <DetailPage query={hook} back={back} failure="Could not get hook">
      {(data) => <HookView hook={data} {...screens} />}
    </DetailPage>
  );
}

/** The hook once it is read: its kind, its menu and its tabs. */
function HookView({ hook, ...screens }: HookScreens & { hook: Hook }) {
  const { context, ownerId, base } = screens;
  const kind = hookTypes[hook.type];
  const hookBase = `${base}/${hook._id}`;
  return (
    <>
      <PageTitle
        level={2}
        leading={
          <ThemeIcon variant="light" size={40} radius="md">
            {kind.icon}
          </ThemeIcon>
        }
        title={hook.name || kind.label}
        badges={<Badge variant="default">{kind.label}</Badge>}
        description={<span title={exactTime(hook.createdAt)}>Created {relativeTime(hook.createdAt)}</span>}
        action={<HookMenu hook={hook} {...screens} />}
      />
      <RouteTabs
        base={hookBase}
        variant="pills"
        tabs={[
          { value: 'settings', label: 'Settings', icon: <IconSettings size={16} /> },
          { value: 'deliveries', label: 'Deliveries', icon: <IconSend size={16} /> },
        ]}
      />
      <Routes>
        <Route index element={<DefaultTab tab="settings" />} />
        <Route path="settings" element={<HookSettings key={hook._id} hook={hook} {...screens} />} />
        <Route path="deliveries" element={<HookDeliveries context={context} ownerId={ownerId} hookId={hook._id} />} />
        <Route path="*" element={<NotFound />} />
      </Routes>
    </>
  );
}
