import { Card, Stack, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import type { api, Org, RouteBody } from '@wharf/contract';
import type { z } from 'zod';
import { contractResolver, startFormFrom } from '../lib/form.ts';
import { type FailedAction, notifyFailure, notifySuccess } from '../lib/notify.ts';
import { ColorField } from './ColorField.tsx';
import { LogoCard } from './LogoCard.tsx';
import { SaveButtons } from './SaveButtons.tsx';

/** The update body of organizations; that of teams is the same shape. */
type NameAndColor = RouteBody<typeof api.updateOrg> & RouteBody<typeof api.updateTeam>;
/** What organizations and teams share in their settings. */
type Entity = Pick<Org, '_id' | 'name' | 'color' | 'logo'>;

interface NameAndColorProps {
  entity: Entity;
  title: string;
  /** Says what the color stands in for. */
  colorDescription: string;
  /** The contract's update body, whose messages the form shows. */
  schema: z.ZodType;
  save: (body: NameAndColor) => Promise<NameAndColor>;
  savedMessage: string;
  failedAction: FailedAction;
  /** Refetches what shows the entity once it changed. */
  refresh: () => Promise<unknown>;
}

function NameAndColorForm({
  entity,
  title,
  colorDescription,
  schema,
  save,
  savedMessage,
  failedAction,
  refresh,
}: NameAndColorProps) {
  const form = useForm<NameAndColor>({
    initialValues: { name: entity.name, color: entity.color },
    validate: contractResolver(schema),
  });
  const saving = useMutation({
    mutationFn: save,
    onSuccess: async (saved) => {
      startFormFrom(form, { name: saved.name, color: saved.color });
      notifySuccess(savedMessage);
      await refresh();
    },
    onError: (error) => notifyFailure(failedAction, error),
  });
  return (
    <Card>
      <form onSubmit={form.onSubmit((values) => saving.mutate(values))} noValidate>
        <Stack>
          <Title order={2} size="h4">
            {title}
          </Title>
          <TextInput label="Name" withAsterisk {...form.getInputProps('name')} />
          <ColorField description={colorDescription} {...form.getInputProps('color')} />
          <SaveButtons justify="flex-end" dirty={form.isDirty()} saving={saving.isPending} />
        </Stack>
      </form>
    </Card>
  );
}

/** The settings of an organization or a team: its name and color, and its logo. */
export function EntitySettings({
  uploadLogo,
  removeLogo,
  ...props
}: NameAndColorProps & {
  uploadLogo: (file: File) => Promise<unknown>;
  removeLogo: () => Promise<unknown>;
}) {
  const { entity, refresh } = props;
  return (
    <Stack gap="lg">
      <NameAndColorForm key={entity._id} {...props} />
      <LogoCard
        name={entity.name}
        color={entity.color}
        logo={entity.logo}
        onUpload={(file) => uploadLogo(file).then(refresh)}
        onRemove={() => removeLogo().then(refresh)}
      />
    </Stack>
  );
}
