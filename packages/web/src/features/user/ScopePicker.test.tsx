import { fireEvent, screen } from '@testing-library/react';
import type { ApiEndpoint } from '@wharf/contract';
import { describe, expect, it, vi } from 'vitest';
import { renderWithTheme } from '../../test/render.tsx';
import { ScopePicker } from './ScopePicker.tsx';

const endpoints: ApiEndpoint[] = [
  { method: 'get', path: '/api/v1/orgs', apiScope: 'org_list', summary: 'Organizations' },
  { method: 'get', path: '/api/v1/orgs/:orgId', apiScope: 'org_read', summary: 'One organization' },
  { method: 'post', path: '/api/v1/orgs/:orgId/logo', apiScope: 'org_logo', summary: 'Upload the logo' },
  { method: 'delete', path: '/api/v1/orgs/:orgId/logo', apiScope: 'org_logo', summary: 'Remove the logo' },
  { method: 'put', path: '/api/v1/members/:memberId', apiScope: 'member_update', summary: 'Toggle admin' },
  { method: 'get', path: '/api/v1/api-tokens', apiScope: null, summary: 'Tokens' },
];

function picker(value: string[]) {
  const onChange = vi.fn();
  renderWithTheme(<ScopePicker endpoints={endpoints} value={value} onChange={onChange} />);
  return onChange;
}

describe('ScopePicker', () => {
  it('chooses every scope of a group at once', () => {
    const onChange = picker([]);
    fireEvent.click(screen.getByRole('checkbox', { name: 'All Organizations scopes' }));
    expect(onChange).toHaveBeenCalledWith(['org_list', 'org_read', 'org_logo']);
  });

  it('chooses the scope of one endpoint, which every endpoint of that scope shows', () => {
    const onChange = picker(['org_logo']);
    fireEvent.click(screen.getByRole('button', { name: /Organizations/ }));
    fireEvent.click(screen.getByRole('button', { name: /Members/ }));
    expect(screen.getByRole('checkbox', { name: 'POST /api/v1/orgs/:orgId/logo' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'DELETE /api/v1/orgs/:orgId/logo' })).toBeChecked();
    expect(screen.getByText('1 of 3 scopes')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('checkbox', { name: 'PUT /api/v1/members/:memberId' }));
    expect(onChange).toHaveBeenCalledWith(['org_logo', 'member_update']);
  });

  it('marks a partly chosen group as indeterminate', () => {
    picker(['org_read']);
    const group = screen.getByRole('checkbox', { name: 'All Organizations scopes' }) as HTMLInputElement;
    expect(group.dataset.indeterminate).toBe('true');
  });

  it('never lets an endpoint without a scope be chosen', () => {
    picker([]);
    fireEvent.click(screen.getByRole('button', { name: /Not available to tokens/ }));
    expect(screen.getByRole('checkbox', { name: 'GET /api/v1/api-tokens' })).toBeDisabled();
  });

  it('colors the method badges: get green, post blue, put info, delete red', () => {
    picker([]);
    fireEvent.click(screen.getByRole('button', { name: /Organizations/ }));
    fireEvent.click(screen.getByRole('button', { name: /Members/ }));
    const badge = (method: string) => screen.getAllByText(method)[0]!.closest('.mantine-Badge-root')!;
    expect(badge('get').getAttribute('style')).toContain('--mantine-color-green-filled');
    expect(badge('post').getAttribute('style')).toContain('--mantine-color-blue-filled');
    expect(badge('put').getAttribute('style')).toContain('--mantine-color-info-filled');
    expect(badge('delete').getAttribute('style')).toContain('--mantine-color-red-filled');
  });
});
