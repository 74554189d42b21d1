import { Button, Card, ColorInput, Group, Stack, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Team, updateTeamBody } from '@wharf/contract';
import { LogoCard } from '../../components/LogoCard.tsx';
import { swatches } from '../../components/swatches.ts';
import { call, upload } from '../../lib/api.ts';
import { contractResolver } from '../../lib/form.ts';
import { notifyFailure, notifySuccess } from '../../lib/notify.ts';

function TeamForm({ team }: { team: Team }) {
  const client = useQueryClient();
  const form = useForm({
    initialValues: { name: team.name, color: team.color },
    validate: contractResolver(updateTeamBody),
  });
  const save = useMutation({
    mutationFn: (body: { name: string; color: string }) => call(api.updateTeam, { params: { teamId: team._id }, body }),
    onSuccess: async (saved) => {
      const values = { name: saved.name, color: saved.color };
      form.setInitialValues(values);
      form.setValues(values);
      form.resetDirty(values);
      notifySuccess('Team saved');
      await Promise.all([
        client.invalidateQueries({ queryKey: [api.getTeam.path] }),
        client.invalidateQueries({ queryKey: [api.listTeams.path] }),
      ]);
    },
    onError: (error) => notifyFailure('update team', error),
  });
  return (
    <Card>
      <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate>
        <Stack>
          <Title order={2} size="h4">
            Team
          </Title>
          <TextInput label="Name" withAsterisk {...form.getInputProps('name')} />
          <ColorInput
            label="Color"
            description="Shown where the team has no logo"
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

/** The Settings tab of a team: its name and color, and its logo. */
export function TeamSettingsTab({ team }: { team: Team }) {
  const client = useQueryClient();
  const params = { teamId: team._id };
  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: [api.getTeam.path] }),
      client.invalidateQueries({ queryKey: [api.listTeams.path] }),
    ]);
  return (
    <Stack gap="lg">
      <TeamForm key={team._id} team={team} />
      <LogoCard
        name={team.name}
        color={team.color}
        logo={team.logo}
        onUpload={(file) => upload(api.setTeamLogo, params, file).then(refresh)}
        onRemove={() => call(api.removeTeamLogo, { params }).then(refresh)}
      />
    </Stack>
  );
}
