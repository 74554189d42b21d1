import { Button, Card, ColorInput, Group, Stack, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, updateOrgBody } from '@wharf/contract';
import { LogoCard } from '../../components/LogoCard.tsx';
import { swatches } from '../../components/swatches.ts';
import { call, upload } from '../../lib/api.ts';
import { contractResolver } from '../../lib/form.ts';
import { notifyFailure, notifySuccess } from '../../lib/notify.ts';
import { useCurrentOrg } from '../orgs/currentOrg.tsx';

function GeneralSettings() {
  const { org } = useCurrentOrg();
  const client = useQueryClient();
  const form = useForm({
    initialValues: { name: org.name, color: org.color },
    validate: contractResolver(updateOrgBody),
  });
  const save = useMutation({
    mutationFn: (body: { name: string; color: string }) => call(api.updateOrg, { params: { orgId: org._id }, body }),
    onSuccess: async (saved) => {
      const values = { name: saved.name, color: saved.color };
      form.setInitialValues(values);
      form.setValues(values);
      form.resetDirty(values);
      notifySuccess('Org saved');
      await Promise.all([
        client.invalidateQueries({ queryKey: [api.getOrg.path] }),
        client.invalidateQueries({ queryKey: [api.listOrgs.path] }),
      ]);
    },
    onError: (error) => notifyFailure('update org', error),
  });

  return (
    <Card>
      <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate>
        <Stack>
          <Title order={2} size="h4">
            General settings
          </Title>
          <TextInput label="Name" withAsterisk {...form.getInputProps('name')} />
          <ColorInput
            label="Color"
            description="Shown where the organization has no logo"
            format="hex"
            swatches={swatches}
            fixOnBlur={false}
            withAsterisk
            {...form.getInputProps('color')}
          />
          <Group justify="flex-end">
            <Button type="submit" disabled={!form.isDirty()} loading={save.isPending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

export function OrgSettingsTab() {
  const { org } = useCurrentOrg();
  const client = useQueryClient();
  const params = { orgId: org._id };
  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: [api.getOrg.path] }),
      client.invalidateQueries({ queryKey: [api.listOrgs.path] }),
    ]);
  return (
    <Stack gap="lg">
      <GeneralSettings />
      <LogoCard
        name={org.name}
        color={org.color}
        logo={org.logo}
        onUpload={(file) => upload(api.setOrgLogo, params, file).then(refresh)}
        onRemove={() => call(api.removeOrgLogo, { params }).then(refresh)}
      />
    </Stack>
  );
}
