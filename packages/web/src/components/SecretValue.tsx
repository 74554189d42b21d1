import { Code, Group } from '@mantine/core';
import { CopyAction } from './CopyAction.tsx';
import classes from './SecretValue.module.css';

/** The start and end of a token, enough to tell tokens apart, with its middle masked. */
function masked(value: string) {
  return `${value.slice(0, 11)}${'•'.repeat(12)}${value.slice(-4)}`;
}

/**
 * A token's value with a copy action. `masked` shows only its ends (a row among others);
 * `blurred` blurs it until pointed at or focused (a token's own page); `revealed` shows it whole
 * (right after creating it).
 */
export function SecretValue({
  value,
  label,
  copyLabel = `Copy ${label.charAt(0).toLowerCase()}${label.slice(1)}`,
  shown,
}: {
  value: string;
  label: string;
  copyLabel?: string;
  shown: 'masked' | 'blurred' | 'revealed';
}) {
  if (shown === 'blurred')
    return (
      <Group gap="xs" wrap="nowrap">
        <Code className={classes.blurred} tabIndex={0} aria-label={label} block>
          {value}
        </Code>
        <CopyAction value={value} label={copyLabel} size="lg" />
      </Group>
    );
  return (
    <Group gap="xs" wrap="nowrap" miw={0}>
      <Code fz="xs" px="sm" py={6} aria-label={label} className={classes.inline}>
        {shown === 'revealed' ? value : masked(value)}
      </Code>
      <CopyAction value={value} label={copyLabel} />
    </Group>
  );
}
