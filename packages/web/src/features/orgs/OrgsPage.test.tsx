import { screen } from '@testing-library/react';
import { api } from '@wharf/contract';
import { describe, expect, it } from 'vitest';
import { keyOf } from '../../lib/api.ts';
import { CurrentOrgProvider } from '../../lib/currentOrg.tsx';
import { userQuery } from '../../lib/session.ts';
import { acme, signedInUser } from '../../test/fixtures.ts';
import { renderWithData } from '../../test/renderWithData.tsx';
import { OrgsPage } from './OrgsPage.tsx';

const mayNotCreate =
  "You may not create organizations on this installation. Ask an organization's admin to invite you.";

function renderOrgs(canCreateOrgs: boolean, orgs = [acme]) {
  renderWithData(
    <CurrentOrgProvider>
      <OrgsPage />
    </CurrentOrgProvider>,
    {
      at: '/orgs',
      known: [
        [userQuery.queryKey, signedInUser({ canCreateOrgs })],
        [keyOf(api.listOrgs), orgs],
      ],
    },
  );
}

describe('the organizations page', () => {
  it('offers to create an organization to a user who may', () => {
    renderOrgs(true);
    expect(screen.getByRole('button', { name: 'Select Acme' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add org' })).toBeInTheDocument();
    expect(screen.queryByText(mayNotCreate)).toBeNull();
  });

  it('tells a user who may not create one whom to ask instead', () => {
    renderOrgs(false);
    expect(screen.getByRole('button', { name: 'Select Acme' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add org' })).toBeNull();
    expect(screen.getByText(mayNotCreate)).toBeInTheDocument();
  });

  it('tells it too when the user belongs to no organization yet', () => {
    renderOrgs(false, []);
    expect(screen.getByRole('heading', { name: 'No organizations' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add org' })).toBeNull();
    expect(screen.getByText(mayNotCreate, { exact: false })).toBeInTheDocument();
  });
});
