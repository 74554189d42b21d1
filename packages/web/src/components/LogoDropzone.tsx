// Mantine's core styles first: its extensions' styles build on them, in the same layer.
import './allMantineStyles.ts';
import '@mantine/dropzone/styles.layer.css';
import { Group, Stack, Text } from '@mantine/core';
import { Dropzone, type FileRejection } from '@mantine/dropzone';
import { IconPhoto, IconUpload, IconX } from '@tabler/icons-react';
import { LOGO_MAX_BYTES, LOGO_TYPES } from '@wharf/contract';

const rejection = (rejections: FileRejection[]) =>
  new Error(
    rejections[0]?.errors[0]?.code === 'file-too-large'
      ? 'The file is larger than 1 MiB'
      : 'The logo must be one PNG, JPEG, WebP or GIF image',
  );

/** Where a logo is dropped or chosen: one image of the contract's types and size. */
export function LogoDropzone({
  loading,
  onDrop,
  onReject,
}: {
  loading: boolean;
  onDrop: (file: File) => void;
  onReject: (error: Error) => void;
}) {
  return (
    <Dropzone
      onDrop={(files) => files[0] && onDrop(files[0])}
      onReject={(rejections) => onReject(rejection(rejections))}
      maxSize={LOGO_MAX_BYTES}
      accept={[...LOGO_TYPES]}
      multiple={false}
      loading={loading}
      style={{ flex: 1, minWidth: 220 }}
      aria-label="Logo file"
      inputProps={{ 'aria-label': 'Logo file' }}
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
  );
}
