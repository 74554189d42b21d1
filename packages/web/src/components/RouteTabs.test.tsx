import { fireEvent, screen } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderWithTheme } from '../test/render.tsx';
import { RouteTabs } from './RouteTabs.tsx';

function Where() {
  return <output aria-label="path">{useLocation().pathname}</output>;
}

function tabsAt(path: string) {
  renderWithTheme(
    <MemoryRouter initialEntries={[path]}>
      <RouteTabs
        base="/sites/s1/settings"
        label="Site settings"
        tabs={[
          { value: '', label: 'General' },
          { value: 'headers', label: 'Headers' },
        ]}
      />
      <Where />
    </MemoryRouter>,
  );
}

describe('RouteTabs', () => {
  it('selects the tab of the base address itself', () => {
    tabsAt('/sites/s1/settings');
    expect(screen.getByRole('tab', { name: 'General' }).getAttribute('aria-selected')).toBe('true');
  });

  it('selects a tab by the first segment after the base, deeper pages included', () => {
    tabsAt('/sites/s1/settings/headers/edit');
    expect(screen.getByRole('tab', { name: 'Headers' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tab', { name: 'General' }).getAttribute('aria-selected')).toBe('false');
  });

  it("goes to each tab's address, the base one without a trailing segment", () => {
    tabsAt('/sites/s1/settings/headers');
    fireEvent.click(screen.getByRole('tab', { name: 'General' }));
    expect(screen.getByLabelText('path').textContent).toBe('/sites/s1/settings');
    fireEvent.click(screen.getByRole('tab', { name: 'Headers' }));
    expect(screen.getByLabelText('path').textContent).toBe('/sites/s1/settings/headers');
  });

  it('selects nothing at an address none of its tabs has', () => {
    tabsAt('/sites/s1/settings/unknown');
    for (const tab of screen.getAllByRole('tab')) expect(tab.getAttribute('aria-selected')).toBe('false');
  });
});
