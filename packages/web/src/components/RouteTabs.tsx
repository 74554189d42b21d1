import { Tabs } from '@mantine/core';
import type { ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';

/** Tabs whose choice is the last segment of the URL, so that every tab has its own address. */
export function RouteTabs({
  base,
  tabs,
  variant = 'default',
}: {
  base: string;
  tabs: { value: string; label: string; icon?: ReactNode }[];
  variant?: 'default' | 'outline' | 'pills';
}) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const rest = pathname.slice(base.length).split('/').filter(Boolean)[0];
  const active = tabs.find((tab) => tab.value === rest)?.value ?? null;
  return (
    <Tabs value={active} onChange={(value) => value && navigate(`${base}/${value}`)} variant={variant} mb="lg">
      <Tabs.List>
        {tabs.map((tab) => (
          <Tabs.Tab key={tab.value} value={tab.value} leftSection={tab.icon}>
            {tab.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}
