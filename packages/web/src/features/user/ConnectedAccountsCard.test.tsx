import { fireEvent, screen, within } from '@testing-library/react';
import { api, type Identity } from '@wharf/contract';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { keyOf } from '../../lib/api.ts';
import { systemEnvQuery } from '../../lib/systemEnv.ts';
import { systemEnv } from '../../test/fixtures.ts';
import { renderWithData } from '../../test/renderWithData.tsx';
import { ConnectedAccountsCard } from './ConnectedAccountsCard.tsx';

const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
const weekAgo = new Date(Date.now() - 7 * 86_400_000).toISOString();

function identity(overrides: Partial<Identity>): Identity {
  return {
    _id: 'i1',
    provider: 'github',
    login: 'ada',
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    avatarUrl: null,
    current: false,
    createdAt: weekAgo,
    lastSignInAt: hourAgo,
    ...overrides,
  };
}

const github = identity({ current: true });
const keycloak = identity({ _id: 'i2', provider: 'oidc', login: 'alovelace', email: null, lastSignInAt: null });

function renderCard(identities: Identity[], at = '/user/security') {
  renderWithData(<ConnectedAccountsCard />, {
    at,
    known: [
      [keyOf(api.listIdentities), identities],
      [keyOf(api.getAuthMethods), ['in-memory', 'github', 'gitlab', 'oidc']],
      [systemEnvQuery.queryKey, systemEnv('Keycloak')],
    ],
  });
}

describe('Connected accounts', () => {
  it('lists each account: provider, who it is there, since when, and which one opened this session', () => {
    renderCard([github, keycloak]);
    expect(screen.getByRole('heading', { name: 'Connected accounts' })).toBeInTheDocument();
    const first = screen.getByLabelText('GitHub account ada');
    expect(within(first).getByText('This session')).toBeInTheDocument();
    expect(within(first).getByText('ada · Ada Lovelace · ada@example.com')).toBeInTheDocument();
    expect(within(first).getByText('Connected 7 days ago')).toBeInTheDocument();
    expect(within(first).getByText('Last sign-in 1 hour ago')).toBeInTheDocument();
    const second = screen.getByLabelText('Keycloak account alovelace');
    expect(within(second).queryByText('This session')).toBeNull();
    expect(within(second).getByText(/Never signed in/)).toBeInTheDocument();
  });

  it('offers to disconnect any account while another one is left', () => {
    renderCard([github, keycloak]);
    for (const button of screen.getAllByRole('button', { name: 'Disconnect' }))
      expect(button).not.toHaveAttribute('aria-disabled');
  });

  it('does not disconnect the only account, and says why', async () => {
    const fetch = vi.fn(() => new Promise<Response>(() => {}));
    vi.stubGlobal('fetch', fetch);
    onTestFinished(() => {
      vi.unstubAllGlobals();
    });
    renderCard([github]);
    const button = screen.getByRole('button', { name: 'Disconnect' });
    expect(button).toHaveAttribute('aria-disabled', 'true');
    fireEvent.click(button);
    fireEvent.mouseEnter(button);
    expect(await screen.findByText('Your only sign-in account cannot be disconnected')).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
  });

  it("connects another account through a form posted to each of the installation's providers not yet connected", () => {
    renderCard([github]);
    const names = ['Connect GitLab', 'Connect Keycloak'];
    expect(screen.getAllByRole('button', { name: /^Connect / }).map((button) => button.textContent)).toEqual(names);
    const form = screen.getByRole('button', { name: 'Connect GitLab' }).closest('form');
    expect(form).toHaveAttribute('method', 'post');
    expect(form).toHaveAttribute('action', '/auth/gitlab/link');
  });

  it('says when the provider sent the browser back with the account connected', () => {
    renderCard([github, keycloak], '/user/security?linked=oidc');
    expect(screen.getByRole('status')).toHaveTextContent('Your Keycloak account is now connected.');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says why connecting an account was refused', () => {
    renderCard([github], '/user/security?error=IDENTITY_IN_USE&provider=gitlab');
    expect(screen.getByRole('alert')).toHaveTextContent(
      'That GitLab account is already connected to another Wharf user.',
    );
    fireEvent.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('names the account of the user name and password form', () => {
    renderCard([identity({ provider: 'in-memory', login: 'admin', name: 'admin', email: null })]);
    expect(screen.getByLabelText('Password account admin')).toHaveTextContent('Password');
  });
});
