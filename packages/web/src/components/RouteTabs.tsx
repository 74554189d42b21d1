import { Tabs } from '@mantine/core';
import { type ReactNode, useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import classes from './RouteTabs.module.css';

/** Mantine needs a non-empty value: the tab of the base address is '.' to it, as in a relative path. */
const BASE_TAB = '.';

/**
 * Tabs whose choice is the first segment of the URL after `base`, so that every tab has its own
 * address; a tab whose value is '' is the base address itself.
 */
export function RouteTabs({
  base,
  tabs,
  variant = 'default',
  label,
}: {
  base: string;
  tabs: { value: string; label: string; icon?: ReactNode }[];
  variant?: 'default' | 'outline' | 'pills';
  label?: string;
}) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const list = useRef<HTMLDivElement>(null);
  const rest = pathname.slice(base.length).split('/').filter(Boolean)[0] ?? '';
  const active = tabs.some((tab) => tab.value === rest) ? rest || BASE_TAB : null;
  // A tab reached by its address may lie beyond the scrolled edge of a narrow screen: bring it in.
  useEffect(() => {
    const tab = active && list.current?.querySelector('[data-active]');
    if (tab) tab.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [active]);
  return (
    <Tabs
      value={active}
      onChange={(value) => value && navigate(value === BASE_TAB ? base : `${base}/${value}`)}
      variant={variant}
      mb="lg"
      classNames={{ list: classes.list, tab: classes.tab }}
    >
      <Tabs.List ref={list} aria-label={label}>
        {tabs.map((tab) => (
          <Tabs.Tab key={tab.value} value={tab.value || BASE_TAB} leftSection={tab.icon}>
            {tab.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      {/* Each tab controls a panel (`aria-controls`): the page below is the active one's content, so these stay empty. */}
      {tabs.map((tab) => (
        <Tabs.Panel key={tab.value} value={tab.value || BASE_TAB}>
          {null}
        </Tabs.Panel>
      ))}
    </Tabs>
  );
}
