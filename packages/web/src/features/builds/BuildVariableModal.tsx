import { Select, Switch, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import {
  api,
  BUILD_VARIABLE_CONTEXTS,
  type BuildVariable,
  type BuildVariableContext,
  buildVariableBody,
  buildVariableUpdate,
  type RouteBody,
} from '@wharf/contract';
import { FormModal, useCreateModal } from '../../components/FormModal.tsx';
import { call } from '../../lib/api.ts';
import { contractResolver } from '../../lib/form.ts';

export const contextLabels: Record<BuildVariableContext, string> = {
  all: 'Every build',
  production: 'Production',
  previews: 'Previews',
  branch: 'One branch',
};

interface Values {
  key: string;
  value: string;
  secret: boolean;
  context: BuildVariableContext;
  gitBranch: string;
}

const blank: Values = { key: '', value: '', secret: false, context: 'all', gitBranch: '' };

const branchOf = (values: Values) => (values.context === 'branch' ? values.gitBranch : null);

/** A new variable as the API takes it: no branch outside a branch context. */
const createBody = (values: Values): RouteBody<typeof api.createBuildVariable> => ({
  ...values,
  gitBranch: branchOf(values),
});

/** A change as the API takes it: a secret's value only when typed again. */
function updateBody(values: Values, editing: BuildVariable): RouteBody<typeof api.updateBuildVariable> {
  const keepsSecret = editing.secret && values.secret && values.value === '';
  return {
    context: values.context,
    gitBranch: branchOf(values),
    secret: values.secret,
    ...(keepsSecret ? {} : { value: values.value }),
  };
}

/** Adds a variable, or changes one (`editing`): a secret's value is never shown, only replaced. */
export function BuildVariableModal({
  siteId,
  editing,
  opened,
  onClose,
}: {
  siteId: string;
  editing: BuildVariable | null;
  opened: boolean;
  onClose: () => void;
}) {
  const client = useQueryClient();
  const form = useForm<Values>({
    initialValues: editing
      ? {
          key: editing.key,
          value: editing.value ?? '',
          secret: editing.secret,
          context: editing.context,
          gitBranch: editing.gitBranch ?? '',
        }
      : blank,
    validate: (values) =>
      editing
        ? contractResolver(buildVariableUpdate)(updateBody(values, editing))
        : contractResolver(buildVariableBody)(createBody(values)),
  });
  const { modal } = useCreateModal({
    form,
    opened,
    onClose,
    create: (values) =>
      editing
        ? call(api.updateBuildVariable, {
            params: { siteId, buildVariableId: editing._id },
            body: updateBody(values, editing),
          })
        : call(api.createBuildVariable, { params: { siteId }, body: createBody(values) }),
    onCreated: (_saved, close) => {
      void client.invalidateQueries({ queryKey: [api.listBuildVariables.path] });
      close();
    },
    failedAction: editing ? 'update build variable' : 'create build variable',
  });
  const secretKept = editing?.secret === true && form.values.secret;
  return (
    <FormModal
      title={editing ? `Change ${editing.key}` : 'Add build variable'}
      {...modal}
      submitLabel={editing ? 'Save' : 'Add variable'}
    >
      <TextInput
        label="Name"
        placeholder="API_URL"
        disabled={editing !== null}
        data-autofocus
        withAsterisk
        {...form.getInputProps('key')}
      />
      <Textarea
        label="Value"
        description={secretKept ? 'Leave empty to keep the secret value as it is' : undefined}
        placeholder={secretKept ? '••••••' : undefined}
        autosize
        minRows={1}
        maxRows={6}
        {...form.getInputProps('value')}
      />
      <Select
        label="Applies to"
        data={BUILD_VARIABLE_CONTEXTS.map((value) => ({ value, label: contextLabels[value] }))}
        allowDeselect={false}
        {...form.getInputProps('context')}
      />
      {form.values.context === 'branch' && (
        <TextInput
          label="Git branch"
          placeholder="feature/new-look"
          withAsterisk
          {...form.getInputProps('gitBranch')}
        />
      )}
      <Switch
        label="Secret: sealed, never shown again, masked in build logs"
        {...form.getInputProps('secret', { type: 'checkbox' })}
      />
    </FormModal>
  );
}
