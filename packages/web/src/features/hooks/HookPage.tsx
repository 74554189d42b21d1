import { ActionIcon, Badge, Group, Menu, Skeleton, Text, ThemeIcon, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconDots, IconSend, IconSettings, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Hook, HookBody } from '@wharf/contract';
import { useEffect } from 'react';
import { Route, Routes, useNavigate, useParams } from 'react-router';
import { BackLink } from '../../components/BackLink.tsx';
import { ConfirmModal } from '../../components/ConfirmModal.tsx';
import { DefaultTab } from '../../components/DefaultTab.tsx';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { NotFound } from '../../components/NotFound.tsx';
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
  const remove = useMutation({
    mutationFn: () => call(routes.remove, { params: one(hook._id) }),
    onSuccess: async () => {
      close();
      navigate(base);
      await client.invalidateQueries({ queryKey: [routes.list.path] });
    },
    onError: (error) => notifyFailure('delete hook', error),
  });
  return (
    <>
      <Menu position="bottom-end">
        <Menu.Target>
          <ActionIcon variant="default" size="lg" aria-label="Hook actions">
            <IconDots size={18} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={open}>
            Delete
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <ConfirmModal
        opened={opened}
        onClose={close}
        title="Delete hook"
        confirmLabel="Delete hook"
        onConfirm={() => remove.mutate()}
        loading={remove.isPending}
      >
        Delete the hook <b>{hook.name || hookTypes[hook.type].label}</b>? It stops being called at once, and its
        deliveries are forgotten.
      </ConfirmModal>
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
  if (hook.error)
    return (
      <>
        {back}
        <ErrorPanel title="Could not get hook" query={hook} />
      </>
    );
  if (!hook.data) return <Skeleton h={240} />;
  const kind = hookTypes[hook.data.type];
  const hookBase = `${base}/${hookId}`;
  return (
    <>
      {back}
      <Group justify="space-between" wrap="nowrap" mb="md" align="flex-start">
        <Group wrap="nowrap" miw={0}>
          <ThemeIcon variant="light" size={40} radius="md">
            {kind.icon}
          </ThemeIcon>
          <div style={{ minWidth: 0 }}>
            <Group gap={6} wrap="nowrap">
              <Title order={2} size="h3" lineClamp={1}>
                {hook.data.name || kind.label}
              </Title>
              <Badge variant="default">{kind.label}</Badge>
            </Group>
            <Text size="xs" c="dimmed" title={exactTime(hook.data.createdAt)}>
              Created {relativeTime(hook.data.createdAt)}
            </Text>
          </div>
        </Group>
        <HookMenu hook={hook.data} {...screens} />
      </Group>
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
        <Route path="settings" element={<HookSettings key={hookId} hook={hook.data} {...screens} />} />
        <Route path="deliveries" element={<HookDeliveries context={context} ownerId={ownerId} hookId={hookId} />} />
        <Route path="*" element={<NotFound />} />
      </Routes>
    </>
  );
}
