import { Group, Text } from '@mantine/core';
import { useId } from 'react';

/** The Wharf mark: a W over a wave. */
export function BrandMark({ size = 30 }: { size?: number }) {
  // One gradient per mark: a hidden mark's gradient would not paint a visible one.
  const gradient = `wharf-mark${useId().replace(/[^\w-]/g, '')}`;
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden focusable="false">
      <defs>
        <linearGradient id={gradient} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#3d8ee6" />
          <stop offset="1" stopColor="#0059b5" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="8" fill={`url(#${gradient})`} />
      <path
        d="M7 9.5l3.2 10 3.1-7.5 2.7 6.2 2.7-6.2 3.1 7.5 3.2-10"
        fill="none"
        stroke="#fff"
        strokeWidth="2.4"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <path
        d="M6.5 24c2.4-1.6 4.8-1.6 7.2 0s4.8 1.6 7.2 0 3.6-1.2 4.6-.6"
        fill="none"
        stroke="#bfe0ff"
        strokeWidth="2"
        strokeLinecap="round"
      />
    </svg>
  );
}

export function Brand({ size = 30 }: { size?: number }) {
  return (
    <Group gap={8} wrap="nowrap">
      <BrandMark size={size} />
      <Text fw={750} fz={size * 0.62} lh={1} style={{ letterSpacing: '-0.02em' }}>
        Wharf
      </Text>
    </Group>
  );
}
