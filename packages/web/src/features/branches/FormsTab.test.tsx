import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { api, type Branch, type SiteForm } from '@wharf/contract';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { keyOf } from '../../lib/api.ts';
import { renderWithData } from '../../test/renderWithData.tsx';
import type { BranchDetail } from './branchQuery.ts';
import { FormsTab } from './FormsTab.tsx';

const branch = { _id: 'b1', siteId: 's1', name: 'main' } as BranchDetail;
const branches = [
  { _id: 'b1', name: 'main' },
  { _id: 'b2', name: 'preview' },
] as Branch[];

function renderForms(forms: SiteForm[]) {
  const params = { siteId: branch.siteId };
  renderWithData(<FormsTab branch={branch} canManage={false} />, {
    known: [
      [keyOf(api.getSystemEnv), { features: { email: true } }],
      [keyOf(api.listSiteForms, { params }), forms],
      [keyOf(api.listBranches, { params }), branches],
    ],
  });
}

function renderEditable(forms: SiteForm[]) {
  const params = { siteId: branch.siteId };
  renderWithData(<FormsTab branch={branch} canManage />, {
    known: [
      [keyOf(api.listSiteForms, { params }), forms],
      [keyOf(api.listBranches, { params }), branches],
    ],
  });
}

describe('the forms tab of a branch', () => {
  it("shows the site's forms, those found in the HTML marked, and those narrowed to other branches", () => {
    renderForms([
      { type: 'db', name: 'contact', honeypot: 'bot-field', branches: null, detected: true },
      { type: 'email', name: 'join', recipient: 'team@example.com', branches: ['b2'], detected: false },
    ]);
    const contact = screen.getByRole('group', { name: 'Form 1' });
    expect(within(contact).getByRole('textbox', { name: 'Name' })).toHaveValue('contact');
    expect(within(contact).getByText('detected')).toBeInTheDocument();
    expect(within(contact).queryByText('not on this branch')).toBeNull();
    const join = screen.getByRole('group', { name: 'Form 2' });
    expect(within(join).getByRole('textbox', { name: 'Recipient' })).toHaveValue('team@example.com');
    expect(within(join).getByText('not on this branch')).toBeInTheDocument();
    expect(within(join).queryByText('detected')).toBeNull();
  });

  it("saves the site's forms, the page's honeypot kept", async () => {
    const saved: SiteForm[] = [{ type: 'db', name: 'contact', honeypot: 'bot-field', branches: null, detected: true }];
    // The submissions list asks too: it gets an empty page.
    const fetch = vi.fn(async (_url: string, init?: RequestInit) =>
      Response.json(init?.method === 'PUT' ? saved : { items: [], count: 0 }),
    );
    vi.stubGlobal('fetch', fetch);
    onTestFinished(() => {
      vi.unstubAllGlobals();
    });
    renderEditable([...saved, { type: 'db', name: 'old', branches: null, detected: false }]);
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    fireEvent.click(within(screen.getByRole('group', { name: 'Form 2' })).getByRole('button', { name: /Remove/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    const [url, init] = fetch.mock.calls.find(([, init]) => (init as RequestInit)?.method === 'PUT') as [
      string,
      RequestInit,
    ];
    expect(url).toBe('/api/v1/sites/s1/forms');
    expect(JSON.parse(String(init.body))).toEqual({
      forms: [{ type: 'db', name: 'contact', honeypot: 'bot-field', branches: null }],
    });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled());
    expect(screen.queryByRole('group', { name: 'Form 2' })).toBeNull();
  });

  it("saves a name found in the HTML (contact-form) as it is, and holds a typed name to the spec's pattern", async () => {
    const found: SiteForm = { type: 'db', name: 'contact-form', branches: null, detected: true };
    const fetch = vi.fn(async (_url: string, init?: RequestInit) =>
      Response.json(init?.method === 'PUT' ? [found] : { items: [], count: 0 }),
    );
    vi.stubGlobal('fetch', fetch);
    onTestFinished(() => {
      vi.unstubAllGlobals();
    });
    renderEditable([found]);
    fireEvent.click(screen.getByRole('button', { name: 'Add form' }));
    const added = screen.getByRole('group', { name: 'Form 2' });
    fireEvent.change(within(added).getByRole('textbox', { name: 'Name' }), { target: { value: 'sign-up' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await within(added).findByText('Must match ^[A-Za-z_]+$')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Form 1' })).queryByText(/Must match/)).toBeNull();
    const puts = () => fetch.mock.calls.filter(([, init]) => (init as RequestInit)?.method === 'PUT');
    expect(puts()).toHaveLength(0);
    fireEvent.change(within(added).getByRole('textbox', { name: 'Name' }), { target: { value: 'sign_up' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts()).toHaveLength(1));
    expect(JSON.parse(String((puts()[0]![1] as RequestInit).body))).toEqual({
      forms: [
        { type: 'db', name: 'contact-form', branches: null },
        { type: 'db', name: 'sign_up', branches: null },
      ],
    });
  });
});
