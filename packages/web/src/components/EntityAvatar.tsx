import { Avatar, type AvatarProps } from '@mantine/core';

/** An organization, team or site as a square: its logo, or its initial on its color. */
export function EntityAvatar({
  name,
  color,
  logo,
  size = 36,
  ...props
}: { name: string; color: string; logo: string | null } & Omit<AvatarProps, 'src' | 'color'>) {
  if (logo) return <Avatar src={logo} alt={`Logo of ${name}`} size={size} radius="md" {...props} />;
  return (
    <Avatar
      size={size}
      radius="md"
      variant="filled"
      styles={{ placeholder: { backgroundColor: color, color: 'white' } }}
      aria-hidden
      {...props}
    >
      {name.slice(0, 1).toUpperCase()}
    </Avatar>
  );
}
