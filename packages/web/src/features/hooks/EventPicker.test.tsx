import { fireEvent, screen } from '@testing-library/react';
import { eventNames } from '@wharf/contract';
import { describe, expect, it, vi } from 'vitest';
import { renderWithTheme } from '../../test/render.tsx';
import { EventPicker, groupEvents } from './EventPicker.tsx';
import { eventLabels } from './eventLabels.ts';

const events = ['team_added', 'team_deleted', 'site_added'];

function picker(value: string[], error?: string) {
  const onChange = vi.fn();
  renderWithTheme(<EventPicker events={events} value={value} onChange={onChange} error={error} />);
  return onChange;
}

describe('EventPicker', () => {
  it('shows each event by its label and toggles it by its API name', () => {
    const onChange = picker(['team_added']);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Site added' }));
    expect(onChange).toHaveBeenCalledWith(['team_added', 'site_added']);
    expect(screen.queryByText('site_added')).toBeNull();
  });

  it('chooses every event, or none, at once', () => {
    const onChange = picker(['team_added']);
    fireEvent.click(screen.getByRole('button', { name: 'Select all' }));
    expect(onChange).toHaveBeenLastCalledWith(events);
    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect(onChange).toHaveBeenLastCalledWith([]);
  });

  it('groups the events by what they are about, with how many are chosen, and no empty group', () => {
    picker(['team_added']);
    expect(screen.getByText('Teams · 1/2')).toBeInTheDocument();
    expect(screen.getByText('Sites · 0/1')).toBeInTheDocument();
    expect(screen.queryByText(/^Organization/)).toBeNull();
    expect(screen.getByText('1 of 3 events chosen: the hook is called when one of them happens')).toBeInTheDocument();
  });

  it('shows why the choice is refused', () => {
    picker([], 'Choose at least one event');
    expect(screen.getByText('Choose at least one event')).toBeInTheDocument();
  });
});

describe('event labels', () => {
  it('name every event once, and no two events alike within a group', () => {
    expect(Object.keys(eventLabels).sort()).toEqual([...eventNames].sort());
    for (const group of groupEvents([...eventNames])) {
      const labels = group.events.map((event) => event.label);
      expect(new Set(labels).size).toBe(labels.length);
    }
  });

  it('keep an event the console does not know under its API name', () => {
    expect(groupEvents(['site_added', 'site_teleported'])).toEqual([
      { entity: 'Sites', events: [{ event: 'site_added', entity: 'Sites', label: 'Site added' }] },
      { entity: 'Other', events: [{ event: 'site_teleported', entity: 'Other', label: 'site_teleported' }] },
    ]);
  });
});
