import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { Dropzone, type FileRejection } from '@mantine/dropzone';
import { IconPhoto, IconTrash, IconUpload, IconX } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { LOGO_MAX_BYTES, LOGO_TYPES } from '@wharf/contract';
import { useRef } from 'react';
import { notifyFailure } from '../lib/notify.ts';
import { EntityAvatar } from './EntityAvatar.tsx';

const rejection = (rejections: FileRejection[]) =>
  new Error(
    rejections[0]?.errors[0]?.code === 'file-too-large'
      ? 'The file is larger than 1 MiB'
      : 'The logo must be one PNG, JPEG, WebP or GIF image',
  );

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
  const openRef = useRef<() => void>(null);
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
        <Dropzone
          openRef={openRef}
          onDrop={(files) => files[0] && uploadLogo.mutate(files[0])}
          onReject={(rejections) => notifyFailure('upload logo', rejection(rejections))}
          maxSize={LOGO_MAX_BYTES}
          accept={[...LOGO_TYPES]}
          multiple={false}
          loading={uploadLogo.isPending}
          style={{ flex: 1, minWidth: 220 }}
          aria-label="Logo file"
          activateOnClick
        >
          <Group justify="center" gap="md" mih={96} style={{ pointerEvents: 'none' }}>
            <Dropzone.Accept>
              <IconUpload size={36} stroke={1.5} color="var(--mantine-primary-color-filled)" />
            </Dropzone.Accept>
            <Dropzone.Reject>
              <IconX size={36} stroke={1.5} color="var(--mantine-color-red-6)" />
            </Dropzone.Reject>
            <Dropzone.Idle>
              <IconPhoto size={36} stroke={1.5} color="var(--mantine-color-dimmed)" />
            </Dropzone.Idle>
            <Stack gap={2}>
              <Text size="sm" fw={500}>
                Drop an image here or click to choose one
              </Text>
              <Text size="xs" c="dimmed">
                It replaces the current logo
              </Text>
            </Stack>
          </Group>
        </Dropzone>
      </Group>
    </Card>
  );
}
