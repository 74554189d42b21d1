import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CurrentOrgProvider } from '../../lib/currentOrg.tsx';
import { userQuery } from '../../lib/session.ts';
import { signedInUser } from '../../test/fixtures.ts';
import { renderWithData } from '../../test/renderWithData.tsx';
import { UserMenu } from './UserMenu.tsx';

function renderMenu(avatarUrl: string | null) {
  renderWithData(
    <CurrentOrgProvider>
      <UserMenu />
    </CurrentOrgProvider>,
    { known: [[userQuery.queryKey, signedInUser({ avatarUrl })]] },
  );
  return screen.getByRole('button', { name: 'User menu of Ada Lovelace' });
}

describe('the user menu', () => {
  it("shows the provider's picture of the user when there is one", () => {
    const button = renderMenu('https://avatars.example.com/u/1');
    expect(button.querySelector('img')).toHaveAttribute('src', 'https://avatars.example.com/u/1');
  });

  it('shows the initials otherwise', () => {
    const button = renderMenu(null);
    expect(button.querySelector('img')).toBeNull();
    expect(button).toHaveTextContent('AL');
  });
});
