import { Button, Card, Group, PasswordInput, Select, Skeleton, Stack, TextInput } from '@mantine/core';
import { type FormErrors, useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { HOOK_SECRET_LENGTH, HOOK_TYPES, type Hook, type HookBody, hookBody, messages } from '@wharf/contract';
import { useEffect } from 'react';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { MailOffNotice } from '../../components/MailOffNotice.tsx';
import { apiQuery } from '../../lib/api.ts';
import { notifyFailure } from '../../lib/notify.ts';
import { randomString } from '../../lib/random.ts';
import { EventPicker } from './EventPicker.tsx';
import { type HookScreens, hookApi } from './hookApi.ts';
import { hookTypes } from './hookTypes.tsx';

export interface HookValues {
  type: Hook['type'] | '';
  name: string;
  events: string[];
  to: string;
  url: string;
  secret: string;
}

/** The form's values of a hook; a new web secret is 32 random characters (spec.md §3). */
export function hookValues(hook?: Hook): HookValues {
  return {
    type: hook?.type ?? '',
    name: hook?.name ?? '',
    events: hook?.events ?? [],
    to: hook?.config.to ?? '',
    url: hook?.config.url ?? '',
    secret: hook?.config.secret ?? randomString(HOOK_SECRET_LENGTH),
  };
}

/** The body of the create and update calls: only the settings of the chosen type. */
export function hookBodyOf(values: HookValues): unknown {
  const { type, name, events } = values;
  const config =
    type === 'email'
      ? { to: values.to }
      : type === 'web'
        ? { url: values.url, secret: values.secret }
        : { url: values.url };
  return { type, name, events, config };
}

function validate(values: HookValues): FormErrors {
  if (!values.type) return { type: messages.required };
  const result = hookBody.safeParse(hookBodyOf(values));
  if (result.success) return {};
  const errors: FormErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path
      .join('.')
      .replace(/^config\./, '')
      .replace(/^events\..*/, 'events');
    errors[field] ??= issue.message;
  }
  return errors;
}

/** The settings of a hook, per type, with the events of its context to choose from. */
export function HookForm({
  context,
  ownerId,
  initialValues,
  submitLabel,
  submitting,
  requireChange,
  onSubmit,
}: Omit<HookScreens, 'base'> & {
  initialValues: HookValues;
  submitLabel: string;
  submitting: boolean;
  /** Keeps the button disabled until something changed (editing, not creating). */
  requireChange?: boolean;
  onSubmit: (body: HookBody) => Promise<boolean>;
}) {
  const { routes, owner } = hookApi(context, ownerId);
  const events = useQuery(apiQuery(routes.events, { params: owner }));
  const form = useForm<HookValues>({ initialValues, validate });

  useEffect(() => {
    if (events.error) notifyFailure('list hook events', events.error);
  }, [events.error]);

  const submit = form.onSubmit(async (values) => {
    if (!(await onSubmit(hookBodyOf(values) as HookBody))) return;
    form.setInitialValues(values);
    form.resetDirty(values);
  });
  const { type } = form.values;
  return (
    <Card>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Select
            label="Type"
            placeholder="Choose a type"
            withAsterisk
            data={HOOK_TYPES.map((value) => ({ value, label: hookTypes[value].label }))}
            description={type ? hookTypes[type].description : 'Where the events go'}
            allowDeselect={false}
            {...form.getInputProps('type')}
          />
          <TextInput label="Name" placeholder="Deploys to #frontend" {...form.getInputProps('name')} />
          {type === 'email' && (
            <MailOffNotice>This hook's deliveries fail until the operator sets SMTP_URL.</MailOffNotice>
          )}
          {type === 'email' && (
            <TextInput
              label="To"
              type="email"
              placeholder="team@example.com"
              withAsterisk
              {...form.getInputProps('to')}
            />
          )}
          {(type === 'slack' || type === 'mattermost' || type === 'web') && (
            <TextInput
              label="URL"
              placeholder={type === 'web' ? 'https://example.com/wharf-events' : 'https://hooks.example.com/…'}
              withAsterisk
              {...form.getInputProps('url')}
            />
          )}
          {type === 'web' && (
            <PasswordInput
              label="Secret"
              description="Each call is signed with it, so that your endpoint can tell it comes from Wharf"
              withAsterisk
              {...form.getInputProps('secret')}
            />
          )}
          {events.error && <ErrorPanel title="Could not list hook events" query={events} />}
          {events.isPending && <Skeleton h={160} />}
          {events.data && (
            <EventPicker
              events={events.data}
              value={form.values.events}
              onChange={(value) => form.setFieldValue('events', value)}
              error={form.errors.events as string | undefined}
            />
          )}
          <Group justify="flex-end">
            <Button type="submit" loading={submitting} disabled={requireChange && !form.isDirty()}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
