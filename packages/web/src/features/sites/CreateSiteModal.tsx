import { Button, Group, Loader, Modal, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCheck } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, createSiteBody, id } from '@wharf/contract';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { apiQuery, call } from '../../lib/api.ts';
import { contractResolver } from '../../lib/form.ts';
import { notifyFailure } from '../../lib/notify.ts';
import { useCurrentOrg } from '../orgs/currentOrg.tsx';
import { useSiteNameCheck } from './useSiteNameCheck.ts';

const createSiteForm = createSiteBody.extend({ teamId: id });

/** Creates a site in one of the organization's teams, its name checked by the server as it is typed. */
export function CreateSiteModal({
  opened,
  onClose,
  teamId = null,
}: {
  opened: boolean;
  onClose: () => void;
  teamId?: string | null;
}) {
  const { org } = useCurrentOrg();
  const client = useQueryClient();
  const navigate = useNavigate();
  const teams = useQuery({
    ...apiQuery(api.listTeams, { params: { orgId: org._id }, query: { size: 100 } }),
    enabled: opened,
  });
  const form = useForm({
    initialValues: { teamId: teamId ?? '', name: '' },
    validate: contractResolver(createSiteForm),
  });
  const nameCheck = useSiteNameCheck(form.values.name);
  const create = useMutation({
    mutationFn: ({ teamId, name }: z.infer<typeof createSiteForm>) =>
      call(api.createSite, { params: { teamId }, body: { name } }),
    onSuccess: async (site) => {
      await Promise.all([
        client.invalidateQueries({ queryKey: [api.listTeamSites.path] }),
        client.invalidateQueries({ queryKey: [api.listOrgSites.path] }),
      ]);
      close();
      navigate(`/sites/${site._id}`);
    },
    onError: (error) => notifyFailure('create site', error),
  });

  const close = () => {
    form.reset();
    onClose();
  };

  const submit = form.onSubmit((values) => {
    if (nameCheck.error) form.setFieldError('name', nameCheck.error);
    else create.mutate(values);
  });

  return (
    <Modal opened={opened} onClose={close} title="Create site">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Select
            label="Team"
            placeholder={teams.isPending ? 'Loading teams…' : 'Choose a team'}
            data={(teams.data?.items ?? []).map((team) => ({ value: team._id, label: team.name }))}
            searchable
            withAsterisk
            nothingFoundMessage="No teams"
            {...form.getInputProps('teamId')}
          />
          <TextInput
            label="Name"
            description="Lowercase letters, digits and hyphens: it becomes part of the site's address"
            placeholder="my-site"
            data-autofocus
            withAsterisk
            {...form.getInputProps('name')}
            error={form.errors.name ?? nameCheck.error}
            rightSection={
              nameCheck.pending ? (
                <Loader size={14} />
              ) : nameCheck.checked && !nameCheck.error ? (
                <IconCheck size={16} color="var(--mantine-color-teal-6)" aria-label="Name is free" />
              ) : null
            }
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
