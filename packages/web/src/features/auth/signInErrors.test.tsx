import { screen } from '@testing-library/react';
import { api, SIGN_IN_ERRORS } from '@wharf/contract';
import { describe, expect, it } from 'vitest';
import { keyOf } from '../../lib/api.ts';
import { systemEnvQuery } from '../../lib/systemEnv.ts';
import { systemEnv } from '../../test/fixtures.ts';
import { renderWithData } from '../../test/renderWithData.tsx';
import { LoginPage } from './LoginPage.tsx';
import { signInErrorText } from './signInErrors.ts';

describe('the texts of a refused sign-in', () => {
  it('names the provider where the refusal came from it', () => {
    expect(signInErrorText('SIGN_IN_NOT_ALLOWED', 'GitHub')).toBe(
      'Your GitHub account is not allowed to sign in here: it is not a member of an organization or group this installation accepts. Ask its operator for access.',
    );
    expect(signInErrorText('SIGN_IN_CANCELLED', 'Keycloak')).toBe('Sign-in was cancelled at Keycloak.');
    expect(signInErrorText('SIGN_IN_FAILED', 'GitLab')).toMatch(/^GitLab did not confirm who you are/);
    expect(signInErrorText('SIGN_IN_PROVIDER_UNREACHABLE', 'Gitea')).toBe(
      'Gitea could not be reached. Please try again later.',
    );
    expect(signInErrorText('IDENTITY_IN_USE', 'GitHub')).toBe(
      'That GitHub account is already connected to another Wharf user.',
    );
  });

  it('explains the refusals that are about the browser or the installation, not the provider', () => {
    expect(signInErrorText('SIGN_IN_STATE_MISMATCH', 'GitHub')).toBe(
      'This sign-in was not started in this browser, or it took too long. Please sign in again.',
    );
    expect(signInErrorText('SIGN_IN_EXPIRED', 'GitHub')).toBe(
      'This sign-in link was already used or has expired. Please sign in again.',
    );
    expect(signInErrorText('SIGN_IN_METHOD_UNKNOWN', 'GitHub')).toBe(
      'This sign-in method is not set up on this installation.',
    );
  });

  it('has a text of its own for every code of the contract, and a plain one for a code it does not know', () => {
    const generic = signInErrorText('SIGN_IN_FROM_THE_FUTURE', 'GitHub');
    expect(generic).toBe('Signing in did not succeed. Please try again; if it keeps failing, tell the operator.');
    for (const code of SIGN_IN_ERRORS) expect(signInErrorText(code, 'GitHub')).not.toBe(generic);
  });

  it('starts with a capital when the provider is not known by name', () => {
    expect(signInErrorText('SIGN_IN_PROVIDER_UNREACHABLE', 'the provider')).toBe(
      'The provider could not be reached. Please try again later.',
    );
  });
});

describe('the sign-in page', () => {
  const methods = ['github', 'gitea', 'oidc', 'in-memory'];

  function renderLogin(at: string, oidcName: string | null) {
    renderWithData(<LoginPage />, {
      at,
      known: [
        [keyOf(api.getAuthMethods), methods],
        [systemEnvQuery.queryKey, systemEnv(oidcName)],
        // The footer's version.
        [keyOf(api.getSystemInfo), { version: '1' }],
      ],
    });
  }

  it('shows why the server sent the browser back, above the methods, naming the provider', () => {
    renderLogin('/login?error=SIGN_IN_NOT_ALLOWED&provider=gitea', 'Keycloak');
    expect(screen.getByRole('alert')).toHaveTextContent('Your Gitea account is not allowed to sign in here');
    const firstMethod = screen.getByRole('link', { name: 'Sign in with GitHub' });
    expect(screen.getByRole('alert').compareDocumentPosition(firstMethod)).toBe(Node.DOCUMENT_POSITION_FOLLOWING);
  });

  it("names the OpenID Connect button after the installation's provider, Gitea among the others", () => {
    renderLogin('/login', 'Keycloak');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('link', { name: 'Sign in with Keycloak' })).toHaveAttribute('href', '/auth/oidc');
    expect(screen.getByRole('link', { name: 'Sign in with Gitea' })).toHaveAttribute('href', '/auth/gitea');
  });

  it('calls it single sign-on while the installation gives it no name', () => {
    renderLogin('/login', null);
    expect(screen.getByRole('link', { name: 'Sign in with single sign-on' })).toHaveAttribute('href', '/auth/oidc');
  });
});
