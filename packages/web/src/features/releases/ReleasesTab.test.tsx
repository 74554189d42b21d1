import { fireEvent, screen, within } from '@testing-library/react';
import type { Release, Site } from '@wharf/contract';
import { describe, expect, it } from 'vitest';
import { renderWithData } from '../../test/renderWithData.tsx';
import { ReleasesTab } from './ReleasesTab.tsx';
import { releasesQuery } from './releasesQuery.ts';
import { problemsSummary } from './ruleProblems.ts';

const site = { _id: 's1', name: 'shop', mainBranch: 'b1' } as Site;

function release(name: string, ruleProblems: Release['ruleProblems']): Release {
  return {
    _id: `r-${name}`,
    siteId: site._id,
    name,
    date: '2026-11-20T10:00:00.000Z',
    slug: 'a1b2c3d4',
    url: `http://a1b2c3d4--${site.name}.localhost:8080/`,
    source: {},
    uploader: null,
    uploadMs: null,
    newFiles: null,
    newSize: null,
    forms: [],
    branches: [],
    fileCount: 12,
    size: 40_960,
    ruleProblems,
    hasPassword: false,
  };
}

const moved = release('moved-from-netlify', [
  { file: '_headers', line: 3, message: "A header line needs 'Name: value'", severity: 'error' },
  { file: '_redirects', line: 9, message: 'This rule never matches: /old/* comes first', severity: 'warning' },
  { file: '_redirects', line: 2, message: 'Unknown status 305', severity: 'error' },
]);
const clean = release('clean', []);

function renderReleases(releases: Release[]) {
  renderWithData(<ReleasesTab site={site} canManage={false} />, {
    known: [
      [releasesQuery(site._id).queryKey, { pages: [{ items: releases, count: releases.length }], pageParams: [0] }],
    ],
  });
}

describe("the problems of a release's _redirects and _headers", () => {
  it('counts errors and warnings on a badge, red when a line was refused', () => {
    expect(problemsSummary(moved.ruleProblems)).toEqual({ text: '2 errors · 1 warning', color: 'red' });
    expect(problemsSummary([moved.ruleProblems[1]!])).toEqual({ text: '1 warning', color: 'yellow' });
  });

  it('shows a badge only on a release with problems', () => {
    renderReleases([moved, clean]);
    const badge = screen.getByRole('button', { name: 'Rule problems of release moved-from-netlify' });
    expect(badge).toHaveTextContent('2 errors · 1 warning');
    expect(badge).toHaveAccessibleDescription('2 errors · 1 warning');
    expect(screen.queryByRole('button', { name: 'Rule problems of release clean' })).toBeNull();
  });

  it('lists the problems at their file and line, _redirects first, with their severity', async () => {
    renderReleases([moved, clean]);
    fireEvent.click(screen.getByRole('button', { name: 'Rule problems of release moved-from-netlify' }));
    const list = await screen.findByRole('dialog', { name: "Problems in the release's files" });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'error_redirects:2 — Unknown status 305',
      'warning_redirects:9 — This rule never matches: /old/* comes first',
      "error_headers:3 — A header line needs 'Name: value'",
    ]);
  });
});
