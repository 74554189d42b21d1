import { Button, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { lazyChunk } from '../lib/chunks.ts';
import { notifyFailure } from '../lib/notify.ts';
import { EntityAvatar } from './EntityAvatar.tsx';
import { OnDemand } from './OnDemand.tsx';

// The drop-zone library serves only the settings screens that show this card.
const LogoDropzone = lazyChunk(() => import('./LogoDropzone.tsx').then((m) => m.LogoDropzone));

/** The Logo card of organization, team and site settings: preview, upload by drop or choice, remove. */
export function LogoCard({
  name,
  color,
  logo,
  onUpload,
  onRemove,
}: {
  name: string;
  color: string;
  logo: string | null;
  onUpload: (file: File) => Promise<unknown>;
  onRemove: () => Promise<unknown>;
}) {
  const uploadLogo = useMutation({ mutationFn: onUpload, onError: (error) => notifyFailure('upload logo', error) });
  const removeLogo = useMutation({ mutationFn: onRemove, onError: (error) => notifyFailure('remove logo', error) });

  return (
    <Card>
      <Title order={2} size="h4" mb={4}>
        Logo
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        PNG, JPEG, WebP or GIF, at most 1 MiB. Without a logo, the color and initial show.
      </Text>
      <Group align="stretch" wrap="wrap" gap="lg">
        <Stack align="center" gap="xs">
          <EntityAvatar name={name} color={color} logo={logo} size={96} radius="lg" />
          {logo && (
            <Button
              variant="subtle"
              color="red"
              size="xs"
              leftSection={<IconTrash size={14} />}
              onClick={() => removeLogo.mutate()}
              loading={removeLogo.isPending}
            >
              Remove
            </Button>
          )}
        </Stack>
        <OnDemand fallback={<Skeleton h={96} style={{ flex: 1, minWidth: 220 }} />}>
          <LogoDropzone
            loading={uploadLogo.isPending}
            onDrop={(file) => uploadLogo.mutate(file)}
            onReject={(error) => notifyFailure('upload logo', error)}
          />
        </OnDemand>
      </Group>
    </Card>
  );
}
