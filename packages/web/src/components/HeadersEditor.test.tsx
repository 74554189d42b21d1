import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithTheme } from '../test/render.tsx';
import { HeadersEditor } from './HeadersEditor.tsx';

function editor(onSave = vi.fn(async () => true)) {
  renderWithTheme(
    <HeadersEditor
      title="Headers"
      description="Sent with every answer"
      headers={[{ name: 'X-Frame-Options', value: 'DENY' }]}
      saving={false}
      onSave={onSave}
    />,
  );
  return onSave;
}

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
});
