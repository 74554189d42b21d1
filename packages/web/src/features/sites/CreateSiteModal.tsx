import { Select, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, createSiteBody, id } from '@wharf/contract';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { FormModal, useCreateModal } from '../../components/FormModal.tsx';
import { NameCheckIndicator } from '../../components/NameCheckIndicator.tsx';
import { apiQuery, call } from '../../lib/api.ts';
import { useCurrentOrg } from '../../lib/currentOrg.tsx';
import { contractResolver, unlessNameTaken } from '../../lib/form.ts';
import { useSiteNameCheck } from '../../lib/useNameCheck.ts';

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
  const form = useForm<z.input<typeof createSiteForm>>({
    initialValues: { teamId: teamId ?? '', name: '' },
    validate: contractResolver(createSiteForm),
  });
  const nameCheck = useSiteNameCheck(form.values.name);
  const { mutation, modal } = useCreateModal({
    form,
    opened,
    onClose,
    create: ({ teamId, name }) => call(api.createSite, { params: { teamId }, body: { name } }),
    onCreated: async (site, close) => {
      await Promise.all([
        client.invalidateQueries({ queryKey: [api.listTeamSites.path] }),
        client.invalidateQueries({ queryKey: [api.listOrgSites.path] }),
      ]);
      close();
      navigate(`/sites/${site._id}`);
    },
    failedAction: 'create site',
  });

  return (
    <FormModal title="Create site" {...modal} onSubmit={unlessNameTaken(form, nameCheck, mutation.mutate)}>
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
        rightSection={<NameCheckIndicator check={nameCheck} />}
      />
    </FormModal>
  );
}
