import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import type { SystemEnv } from '@wharf/contract';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { systemEnvQuery } from '../lib/systemEnv.ts';
import { renderWithTheme } from '../test/render.tsx';
import { MailOffNotice } from './MailOffNotice.tsx';

function env(email: boolean): SystemEnv {
  return {
    url: 'https://wharf.example.com',
    sitesUrl: 'https://sites.example.com',
    version: '1',
    features: { httpsAuto: false, email, builds: false },
    signIn: { oidcName: null },
    crashReports: { dsn: null },
    analytics: { enabled: false },
  };
}

function noticeWith(known: SystemEnv | null) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  if (known) client.setQueryData(systemEnvQuery.queryKey, known);
  renderWithTheme(
    <QueryClientProvider client={client}>
      <MailOffNotice>Send the invitation link yourself.</MailOffNotice>
      <p>form</p>
    </QueryClientProvider>,
  );
}

describe('MailOffNotice', () => {
  it('tells that this server sends no mail, and what that means here', () => {
    noticeWith(env(false));
    expect(screen.getByRole('alert')).toHaveTextContent('Mail is off on this server');
    expect(screen.getByRole('alert')).toHaveTextContent('Send the invitation link yourself.');
  });

  it('says nothing when mail is on', () => {
    noticeWith(env(true));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText(/Mail is off/)).toBeNull();
  });

  it('says nothing while the console does not know yet', () => {
    // The environment's answer never comes.
    vi.stubGlobal('fetch', () => new Promise(() => {}));
    onTestFinished(() => {
      vi.unstubAllGlobals();
    });
    noticeWith(null);
    expect(screen.queryByText(/Mail is off/)).toBeNull();
  });
});
