import { screen } from '@testing-library/react';
import { type AuditEntry, orgEvents, siteEvents, teamEvents } from '@wharf/contract';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderWithTheme } from '../../test/render.tsx';
import { eventChoices } from './AuditFilters.tsx';
import { AuditRow } from './AuditLogTab.tsx';

const entry: AuditEntry = {
  _id: 'e1',
  event: 'site_branch_release_set',
  createdAt: new Date(Date.now() - 3 * 3600_000).toISOString(),
  actor: { _id: 'u1', name: 'Ada' },
  teamId: 't1',
  siteId: 's1',
  summary: "Ada set release 'v2' on branch main of blog",
  link: '/sites/s1/branches/b1',
  data: {},
};

function row(shown: AuditEntry) {
  renderWithTheme(
    <MemoryRouter>
      <AuditRow entry={shown} />
    </MemoryRouter>,
  );
}

describe('AuditRow', () => {
  it('shows the sentence, when and by whom, and opens what it is about', () => {
    row(entry);
    expect(screen.getByText(entry.summary)).toBeInTheDocument();
    expect(screen.getByText('3 hours ago')).toHaveAttribute('datetime', entry.createdAt);
    expect(screen.getByText(/Ada · Branch release changed/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: `Open: ${entry.summary}` })).toHaveAttribute('href', entry.link);
  });

  it('names Wharf for what nobody did and offers no link to what is gone', () => {
    row({ ...entry, actor: null, link: null, summary: 'The system deleted the site blog', event: 'site_deleted' });
    expect(screen.getByText(/Wharf · Site deleted/)).toBeInTheDocument();
    expect(screen.queryByRole('link')).toBeNull();
  });
});

describe('the event picker of the audit log', () => {
  it("offers every event of an organization, once, and none of a user's own", () => {
    const offered = eventChoices.flatMap((group) => group.items.map((item) => item.value));
    expect(offered.sort()).toEqual([...orgEvents, ...teamEvents, ...siteEvents].sort());
  });
});
