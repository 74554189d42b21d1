import { fireEvent, screen } from '@testing-library/react';
import type { Submission } from '@wharf/contract';
import { describe, expect, it, vi } from 'vitest';
import { fileNameOf } from '../../lib/download.ts';
import { renderWithTheme } from '../../test/render.tsx';
import { SubmissionRow } from './SubmissionRow.tsx';
import { formChoices } from './SubmissionsList.tsx';

const submission: Submission = {
  _id: 's1',
  siteId: 'site',
  branchId: 'b1',
  branchName: 'preview',
  releaseId: 'r1',
  form: 'contact',
  fields: { name: 'Ada', message: 'two\nlines' },
  spam: false,
  createdAt: new Date().toISOString(),
};

describe('SubmissionRow', () => {
  it('shows the form and each field as a name and its value', () => {
    renderWithTheme(<SubmissionRow submission={submission} showBranch={false} onDelete={() => {}} />);
    expect(screen.getByText('contact')).toBeInTheDocument();
    expect(screen.getByText('just now')).toBeInTheDocument();
    const names = screen.getAllByRole('term').map((term) => term.textContent);
    const values = screen.getAllByRole('definition').map((value) => value.textContent);
    expect(names).toEqual(['name', 'message']);
    expect(values).toEqual(['Ada', 'two\nlines']);
    expect(screen.queryByLabelText('Branch')).toBeNull();
  });

  it('names the branch in the site-wide list, and asks to delete through its action', () => {
    const onDelete = vi.fn();
    renderWithTheme(<SubmissionRow submission={submission} showBranch onDelete={onDelete} />);
    expect(screen.getByLabelText('Branch')).toHaveTextContent('preview');
    fireEvent.click(screen.getByRole('button', { name: 'Delete submission of contact' }));
    expect(onDelete).toHaveBeenCalledWith(submission);
  });
});

describe('submission helpers', () => {
  it('offers the declared forms, those seen and the one chosen, once each and sorted', () => {
    expect(formChoices(['contact', 'newsletter'], [submission, { ...submission, form: 'old' }], 'zeta')).toEqual([
      'contact',
      'newsletter',
      'old',
      'zeta',
    ]);
  });

  it('takes the download name the server gives', () => {
    expect(fileNameOf('attachment; filename="submissions-acme-2025-01-02.csv"', 'x')).toBe(
      'submissions-acme-2025-01-02.csv',
    );
    expect(fileNameOf(null, 'download')).toBe('download');
  });
});
