import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithTheme } from '../../test/render.tsx';
import { EventPicker } from './EventPicker.tsx';

const events = ['team_added', 'team_deleted', 'site_added'];

function picker(value: string[]) {
  const onChange = vi.fn();
  renderWithTheme(<EventPicker events={events} value={value} onChange={onChange} />);
  return onChange;
}

describe('EventPicker', () => {
  it('toggles one event', () => {
    const onChange = picker(['team_added']);
    fireEvent.click(screen.getByRole('checkbox', { name: 'site_added' }));
    expect(onChange).toHaveBeenCalledWith(['team_added', 'site_added']);
  });

  it('chooses every event, or none, at once', () => {
    const onChange = picker(['team_added']);
    fireEvent.click(screen.getByRole('button', { name: 'Select all' }));
    expect(onChange).toHaveBeenLastCalledWith(events);
    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect(onChange).toHaveBeenLastCalledWith([]);
  });

  it('groups the events by area, with how many are chosen, and no empty area', () => {
    picker(['team_added']);
    expect(screen.getByText('Team · 1/2')).toBeInTheDocument();
    expect(screen.getByText('Site · 0/1')).toBeInTheDocument();
    expect(screen.queryByText(/^Organization/)).toBeNull();
    expect(screen.getByText('1 of 3 chosen: the hook is called when one of them happens')).toBeInTheDocument();
  });
});
