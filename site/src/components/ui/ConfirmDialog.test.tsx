import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from './ConfirmDialog';

function renderConfirm(busy = false) {
  const onConfirm = vi.fn();
  const onCancel = vi.fn();
  render(
    <ConfirmDialog
      title="Delete file?"
      text="“a.png” will be deleted for everyone."
      confirmLabel="Delete"
      cancelLabel="Cancel"
      busy={busy}
      onConfirm={onConfirm}
      onCancel={onCancel}
    />,
  );
  const dialog = screen.getByRole('alertdialog', { name: 'Delete file?', description: '“a.png” will be deleted for everyone.' });
  return { dialog, onConfirm, onCancel };
}

describe('ConfirmDialog', () => {
  it('is an alertdialog named by the question and described by the text, with Cancel focused', () => {
    const { dialog } = renderConfirm();
    expect(dialog.classList.contains('modal--confirm')).toBe(true);
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(within(dialog).queryByRole('button', { name: /close/i })).toBeNull();
  });

  it('confirms with the confirm button', () => {
    const { dialog, onConfirm, onCancel } = renderConfirm();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(onCancel).not.toHaveBeenCalled();
  });

  it.each([
    ['the cancel button', (d: HTMLElement) => fireEvent.click(within(d).getByRole('button', { name: 'Cancel' }))],
    ['Escape', () => fireEvent.keyDown(document, { key: 'Escape' })],
    ['a press on the backdrop', (d: HTMLElement) => fireEvent.mouseDown(d.parentElement!)],
  ])('cancels with %s', (_, act) => {
    const { dialog, onConfirm, onCancel } = renderConfirm();
    act(dialog);
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('disables confirm while busy, cancel stays usable', () => {
    const { dialog, onConfirm, onCancel } = renderConfirm(true);
    const confirm = within(dialog).getByRole('button', { name: 'Delete' }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    fireEvent.click(confirm);
    expect(onConfirm).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
  });
});
