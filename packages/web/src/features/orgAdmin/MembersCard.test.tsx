import { screen, within } from '@testing-library/react';
import { api, DEFAULT_PAGE_SIZE, type OrgMember } from '@wharf/contract';
import { describe, expect, it, onTestFinished } from 'vitest';
import { keyOf } from '../../lib/api.ts';
import { CurrentOrgProvider } from '../../lib/currentOrg.tsx';
import { storageKeys, writeStored } from '../../lib/storage.ts';
import { systemEnvQuery } from '../../lib/systemEnv.ts';
import { acme, inAcme, signedInUser, systemEnv } from '../../test/fixtures.ts';
import { renderWithData } from '../../test/renderWithData.tsx';
import { MembersCard } from './MembersCard.tsx';

function member(overrides: Partial<OrgMember>): OrgMember {
  return {
    _id: 'm1',
    userId: 'u1',
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    admin: true,
    owner: true,
    invitation: null,
    createdAt: '2026-01-05T10:00:00.000Z',
    ...overrides,
  };
}

function renderMembers(members: OrgMember[]) {
  writeStored(storageKeys.currentOrg, acme._id);
  onTestFinished(() => writeStored(storageKeys.currentOrg, null));
  const params = { orgId: acme._id };
  renderWithData(
    <CurrentOrgProvider>
      <MembersCard />
    </CurrentOrgProvider>,
    {
      at: '/org',
      known: [
        ...inAcme(signedInUser(), { _id: 'm1', admin: true, owner: true }),
        [systemEnvQuery.queryKey, systemEnv('Keycloak')],
        [
          keyOf(api.listMembers, { params, query: { search: '', size: DEFAULT_PAGE_SIZE } }),
          { pages: [{ items: members, count: members.length }], pageParams: [0] },
        ],
      ],
    },
  );
}

describe('the members of an organization', () => {
  it('shows which account accepted the invitation of a member who joined by one', () => {
    renderMembers([
      member({}),
      member({
        _id: 'm2',
        userId: 'u2',
        name: 'Grace Hopper',
        email: 'grace@navy.example',
        admin: false,
        owner: false,
        invitation: {
          email: 'grace@example.com',
          provider: 'github',
          login: 'ghopper',
          providerEmail: 'grace@navy.example',
        },
      }),
      member({
        _id: 'm3',
        userId: 'u3',
        name: 'Alan Turing',
        email: null,
        admin: false,
        owner: false,
        invitation: { email: 'alan@example.com', provider: 'oidc', login: 'aturing', providerEmail: null },
      }),
    ]);
    expect(
      within(screen.getByLabelText('Member Grace Hopper')).getByText(
        'Invited as grace@example.com · accepted with GitHub (ghopper, grace@navy.example)',
      ),
    ).toBeInTheDocument();
    expect(
      within(screen.getByLabelText('Member Alan Turing')).getByText(
        'Invited as alan@example.com · accepted with Keycloak (aturing)',
      ),
    ).toBeInTheDocument();
    expect(within(screen.getByLabelText('Member Ada Lovelace')).queryByText(/Invited as/)).toBeNull();
  });
});
