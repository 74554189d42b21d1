import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Header } from '@wharf/contract';
import { describe, expect, it, vi } from 'vitest';
import { renderWithTheme } from '../test/render.tsx';
import { HeadersEditor } from './HeadersEditor.tsx';
import { HeadersTable } from './HeadersTable.tsx';

function editor(onSave = vi.fn(async (_headers: Header[]) => true), headers: Header[] = [FRAME]) {
  renderWithTheme(
    <HeadersEditor
      title="Headers"
      description="Sent with every answer"
      headers={headers}
      saving={false}
      onSave={onSave}
    />,
  );
  return onSave;
}

const FRAME = { name: 'X-Frame-Options', value: 'DENY' };
const CACHE = { path: '/assets/*', name: 'Cache-Control', value: 'public, max-age=31536000, immutable' };

const type = (row: HTMLElement, field: string, value: string) =>
  fireEvent.change(within(row).getByRole('textbox', { name: field }), { target: { value } });

const save = () => screen.getByRole('button', { name: 'Save' });
const discard = () => screen.getByRole('button', { name: 'Discard' });

describe('HeadersEditor', () => {
  it('keeps Save and Discard disabled until something changed', () => {
    editor();
    expect(save()).toBeDisabled();
    expect(discard()).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Add header' }));
    expect(save()).toBeEnabled();
    fireEvent.click(discard());
    expect(screen.queryByRole('group', { name: 'Header 2' })).toBeNull();
    expect(save()).toBeDisabled();
  });

  it('refuses a header name twice, whatever its case, without saving', async () => {
    const onSave = editor();
    fireEvent.click(screen.getByRole('button', { name: 'Add header' }));
    const second = screen.getByRole('group', { name: 'Header 2' });
    fireEvent.change(second.querySelector('input[data-path="headers.1.name"]')!, {
      target: { value: 'x-frame-options' },
    });
    fireEvent.click(save());
    await screen.findByText('Header name must be unique');
    expect(onSave).not.toHaveBeenCalled();
  });

  it('saves the headers, then starts over from what was saved', async () => {
    const onSave = editor();
    fireEvent.click(screen.getByRole('button', { name: 'Remove header 1' }));
    fireEvent.click(save());
    await waitFor(() => expect(onSave).toHaveBeenCalledWith([]));
    await waitFor(() => expect(save()).toBeDisabled());
    expect(screen.getByText('No headers')).toBeInTheDocument();
  });

  it("sends a header's path, and none for a header of every path", async () => {
    const onSave = editor();
    expect(within(screen.getByRole('group', { name: 'Header 1' })).getByRole('textbox', { name: 'Path' })).toHaveValue(
      '',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Add header' }));
    const second = screen.getByRole('group', { name: 'Header 2' });
    type(second, 'Path', CACHE.path);
    type(second, 'Name', CACHE.name);
    type(second, 'Value', CACHE.value);
    fireEvent.click(save());
    await waitFor(() => expect(onSave).toHaveBeenCalledWith([FRAME, CACHE]));
  });

  it('takes a header name again for another path, not twice for one path', async () => {
    const onSave = editor(undefined, [FRAME, CACHE]);
    expect(within(screen.getByRole('group', { name: 'Header 2' })).getByRole('textbox', { name: 'Path' })).toHaveValue(
      '/assets/*',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Add header' }));
    const third = screen.getByRole('group', { name: 'Header 3' });
    type(third, 'Name', 'x-frame-options');
    type(third, 'Path', '/admin/*');
    type(third, 'Value', 'SAMEORIGIN');
    fireEvent.click(save());
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    type(third, 'Path', '');
    fireEvent.click(save());
    await screen.findByText('Header name must be unique');
    expect(onSave).toHaveBeenCalledTimes(1);
  });
});

describe('HeadersTable', () => {
  it("shows each header's path, and 'Every path' for a header without one", () => {
    renderWithTheme(<HeadersTable headers={[FRAME, CACHE]} label="Site headers" />);
    const rows = within(screen.getByRole('table', { name: 'Site headers' })).getAllByRole('row');
    expect(within(rows[1]!).getByRole('cell', { name: 'Every path' })).toBeInTheDocument();
    expect(within(rows[2]!).getByRole('cell', { name: '/assets/*' })).toBeInTheDocument();
    expect(within(rows[2]!).getByRole('cell', { name: 'Cache-Control' })).toBeInTheDocument();
  });
});
