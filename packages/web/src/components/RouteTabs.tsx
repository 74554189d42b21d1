import { Tabs } from '@mantine/core';
import { type ReactNode, useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import classes from './RouteTabs.module.css';

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
  const list = useRef<HTMLDivElement>(null);
  const rest = pathname.slice(base.length).split('/').filter(Boolean)[0];
  const active = tabs.find((tab) => tab.value === rest)?.value ?? null;
  // A tab reached by its address may lie beyond the scrolled edge of a narrow screen: bring it in.
  useEffect(() => {
    const tab = active && list.current?.querySelector('[data-active]');
    if (tab) tab.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [active]);
  return (
    <Tabs
      value={active}
      onChange={(value) => value && navigate(`${base}/${value}`)}
      variant={variant}
      mb="lg"
      classNames={{ list: classes.list, tab: classes.tab }}
    >
      <Tabs.List ref={list}>
        {tabs.map((tab) => (
          <Tabs.Tab key={tab.value} value={tab.value} leftSection={tab.icon}>
            {tab.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}
