import { fireEvent, screen, within } from '@testing-library/react';
import { api, type Redirect } from '@wharf/contract';
import { describe, expect, it } from 'vitest';
import { keyOf } from '../../lib/api.ts';
import { renderWithData } from '../../test/renderWithData.tsx';
import type { BranchDetail } from './branchQuery.ts';
import { RedirectsTab } from './RedirectsTab.tsx';

const branch = { _id: 'b1', siteId: 's1', name: 'main' } as BranchDetail;

function renderRedirects(redirects: Redirect[]) {
  const params = { siteId: branch.siteId, branchId: branch._id };
  renderWithData(<RedirectsTab branch={branch} canManage />, {
    known: [[keyOf(api.getBranchRedirects, { params }), redirects]],
  });
}

describe('the redirects tab of a branch', () => {
  it("shows a redirect rule's target and status", () => {
    renderRedirects([{ type: 'redirect', path: '/old', config: { target: 'https://example.com/new', status: 302 } }]);
    const rule = screen.getByRole('group', { name: 'Redirect 1' });
    expect(within(rule).getByRole('radio', { name: 'Redirect' })).toBeChecked();
    expect(within(rule).getByRole('textbox', { name: 'Target' })).toHaveValue('https://example.com/new');
    expect(within(rule).getByRole('textbox', { name: 'Status' })).toHaveValue('302 Found');
  });

  it('offers a new rule the redirect type, starting at 301', () => {
    renderRedirects([]);
    fireEvent.click(screen.getByRole('button', { name: 'Add redirect' }));
    const rule = screen.getByRole('group', { name: 'Redirect 1' });
    fireEvent.click(within(rule).getByRole('radio', { name: 'Redirect' }));
    expect(within(rule).getByRole('textbox', { name: 'Status' })).toHaveValue('301 Moved permanently');
    expect(within(rule).queryByRole('textbox', { name: 'URL' })).toBeNull();
  });
});
