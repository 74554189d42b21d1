// Mantine's core styles first: its extensions' styles build on them, in the same layer.
import '../../components/allMantineStyles.ts';
import '@mantine/dates/styles.layer.css';
import { Button, Card, Group, Input, SimpleGrid, Skeleton, Stack, TextInput, Title } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { api, name } from '@wharf/contract';
import dayjs from 'dayjs';
import { z } from 'zod';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { apiQuery } from '../../lib/api.ts';
import { contractResolver } from '../../lib/form.ts';
import { ScopePicker } from './ScopePicker.tsx';

/** What the form edits; dates as the picker gives them (local 'YYYY-MM-DD HH:mm:ss'), null when unset. */
export interface ApiTokenValues {
  name: string;
  activatesAt: string | null;
  expiresAt: string | null;
  scopes: string[];
}

const tokenForm = z
  .object({ name, activatesAt: z.string().nullable(), expiresAt: z.string().nullable(), scopes: z.array(z.string()) })
  .refine((values) => !values.activatesAt || !values.expiresAt || dayjs(values.expiresAt).isAfter(values.activatesAt), {
    message: 'Must be after the activation date',
    path: ['expiresAt'],
  });

export const toIso = (value: string | null) => (value ? dayjs(value).toISOString() : null);
export const fromIso = (value: string | null) => (value ? dayjs(value).format('YYYY-MM-DD HH:mm:ss') : null);

const later = (amount: number, unit: dayjs.ManipulateType) => dayjs().add(amount, unit).format('YYYY-MM-DD HH:mm:ss');

/** The create and edit form of an API token: name, when it works, and what it may do. */
export function ApiTokenForm({
  initialValues,
  submitLabel,
  onSubmit,
  submitting,
  requireChange,
}: {
  initialValues: ApiTokenValues;
  submitLabel: string;
  /** Resolves true once saved; a failure is reported by the caller. */
  onSubmit: (values: ApiTokenValues) => Promise<boolean>;
  submitting: boolean;
  /** spec.md §4: an edit form's Save stays disabled until something changed. */
  requireChange: boolean;
}) {
  const endpoints = useQuery(apiQuery(api.listApiEndpoints));
  const form = useForm<ApiTokenValues>({ initialValues, validate: contractResolver(tokenForm) });

  const submit = form.onSubmit(async (values) => {
    if (!(await onSubmit(values))) return;
    form.setInitialValues(values);
    form.resetDirty(values);
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="lg">
        <Card>
          <Stack>
            <Title order={2} size="h4">
              Token
            </Title>
            <TextInput
              label="Name"
              description="What the token is for, such as the machine that uses it"
              withAsterisk
              {...form.getInputProps('name')}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <DateTimePicker
                label="Activates at"
                description="Empty: at once"
                placeholder="At once"
                clearable
                clearButtonProps={{ 'aria-label': 'Clear the activation date' }}
                valueFormat="D MMM YYYY HH:mm"
                presets={[
                  { value: later(1, 'hour'), label: 'In 1 hour' },
                  { value: later(1, 'day'), label: 'Tomorrow' },
                  { value: later(7, 'day'), label: 'In 7 days' },
                ]}
                {...form.getInputProps('activatesAt')}
              />
              <DateTimePicker
                label="Expires at"
                description="Empty: never"
                placeholder="Never"
                clearable
                clearButtonProps={{ 'aria-label': 'Clear the expiry date' }}
                valueFormat="D MMM YYYY HH:mm"
                presets={[
                  { value: later(7, 'day'), label: 'In 7 days' },
                  { value: later(30, 'day'), label: 'In 30 days' },
                  { value: later(90, 'day'), label: 'In 90 days' },
                  { value: later(1, 'year'), label: 'In 1 year' },
                ]}
                {...form.getInputProps('expiresAt')}
              />
            </SimpleGrid>
          </Stack>
        </Card>
        <Card>
          <Stack gap="sm">
            <Title order={2} size="h4">
              Scopes
            </Title>
            <Input.Description>
              Choose whole groups or single endpoints. A token never does more than you may do yourself.
            </Input.Description>
            {endpoints.isPending && <Skeleton h={240} />}
            {endpoints.error && <ErrorPanel title="Could not list the API endpoints" query={endpoints} />}
            {endpoints.data && (
              <ScopePicker
                endpoints={endpoints.data}
                value={form.values.scopes}
                onChange={(scopes) => form.setFieldValue('scopes', scopes)}
              />
            )}
          </Stack>
        </Card>
        <Group justify="flex-end">
          <Button type="submit" loading={submitting} disabled={requireChange && !form.isDirty()}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
