import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Modal, type ModalProps } from './Modal';

/** An opener button and, once pressed, the modal; focus return is checked against the opener. */
function Harness(props: Partial<ModalProps> & { body?: React.ReactNode; onClosed?: () => void }) {
  const [open, setOpen] = useState(false);
  const { body, onClosed, ...rest } = props;
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      {open ? (
        <Modal
          title="Edit note"
          {...rest}
          onClose={() => {
            setOpen(false);
            onClosed?.();
          }}
        >
          {body ?? (
            <>
              <button type="button">First</button>
              <button type="button">Last</button>
            </>
          )}
        </Modal>
      ) : null}
    </>
  );
}

function openIt(props: Parameters<typeof Harness>[0] = {}) {
  render(<Harness {...props} />);
  const opener = screen.getByRole('button', { name: 'Open' });
  opener.focus();
  fireEvent.click(opener);
  return { opener, dialog: screen.getByRole(props.role ?? 'dialog', { name: 'Edit note' }) };
}

const backdropOf = (dialog: HTMLElement) => dialog.parentElement!;

describe('Modal', () => {
  it('is an aria-modal dialog named by its title, with the given role and classes', () => {
    const { dialog } = openIt({ role: 'alertdialog', className: 'modal--confirm' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(dialog.className).toBe('modal modal--confirm');
    expect(backdropOf(dialog).className).toBe('modal__backdrop');
    expect(within(dialog).getByRole('heading', { name: 'Edit note' })).toBeTruthy();
  });

  it('makes the page behind inert while open and lifts it on close', () => {
    const { opener, dialog } = openIt();
    expect(opener.closest('[inert]')).toBeTruthy();
    expect(dialog.closest('[inert]')).toBeNull();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.querySelector('[inert]')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('links a description when one is given', () => {
    render(
      <Modal title="T" onClose={() => {}} describedBy="d">
        <p id="d">Described</p>
      </Modal>,
    );
    expect(screen.getByRole('dialog', { name: 'T', description: 'Described' })).toBeTruthy();
  });

  it.each([
    ['the element marked data-autofocus', (
      <>
        <input aria-label="Field" />
        <button type="button" data-autofocus>
          Marked
        </button>
      </>
    ), 'Marked'],
    ['the first form field over earlier buttons', (
      <>
        <button type="button">Button</button>
        <textarea aria-label="Text" />
      </>
    ), 'Text'],
    ['the first focusable element without fields', (
      <>
        <a href="/x">Link</a>
        <button type="button">Button</button>
      </>
    ), 'Link'],
  ])('moves focus on open to %s', (_, body, name) => {
    const { dialog } = openIt({ body });
    expect(document.activeElement).toBe(within(dialog).queryByText(name) ?? within(dialog).getByLabelText(name));
  });

  it('puts the × button (when labelled) first, so a dialog without fields focuses it', () => {
    const onClosed = vi.fn();
    const { dialog } = openIt({ closeLabel: 'Close', onClosed, body: <video controls aria-label="clip" /> });
    const close = within(dialog).getByRole('button', { name: 'Close' });
    expect(document.activeElement).toBe(close);
    fireEvent.click(close);
    expect(onClosed).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('keeps Tab and Shift+Tab inside the dialog', () => {
    const { dialog } = openIt();
    const first = within(dialog).getByRole('button', { name: 'First' });
    const last = within(dialog).getByRole('button', { name: 'Last' });
    expect(document.activeElement).toBe(first);
    fireEvent.keyDown(document, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(last);
    fireEvent.keyDown(document, { key: 'Tab' });
    expect(document.activeElement).toBe(first);
    // Focus that escaped (e.g. to the page) is pulled back in.
    screen.getByRole('button', { name: 'Open', hidden: true }).focus();
    fireEvent.keyDown(document, { key: 'Tab' });
    expect(document.activeElement).toBe(first);
  });

  it('closes on Escape without letting the key reach outer listeners, and returns focus to the opener', () => {
    const outer = vi.fn();
    window.addEventListener('keydown', outer);
    try {
      const { opener } = openIt();
      expect(document.activeElement).not.toBe(opener);
      fireEvent.keyDown(document, { key: 'Escape' });
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(document.activeElement).toBe(opener);
      expect(outer).not.toHaveBeenCalled();
    } finally {
      window.removeEventListener('keydown', outer);
    }
  });

  it('closes on a press on the backdrop but not on one inside the box', () => {
    const { dialog, opener } = openIt();
    fireEvent.mouseDown(within(dialog).getByRole('button', { name: 'First' }));
    fireEvent.mouseDown(dialog);
    expect(screen.getByRole('dialog')).toBeTruthy();
    fireEvent.mouseDown(backdropOf(dialog));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('with closeOnBackdrop false keeps the dialog (and typed text) on a backdrop press; Escape still closes', () => {
    const { dialog } = openIt({ closeOnBackdrop: false, body: <input aria-label="Name" /> });
    const input = within(dialog).getByLabelText('Name') as HTMLInputElement;
    fireEvent.change(input, { target: { value: 'draft' } });
    fireEvent.mouseDown(backdropOf(dialog));
    expect(screen.getByRole('dialog')).toBe(dialog);
    expect(input.value).toBe('draft');
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('calls the latest onClose after a re-render', () => {
    const first = vi.fn();
    const second = vi.fn();
    const { rerender } = render(
      <Modal title="T" onClose={first}>
        <button type="button">x</button>
      </Modal>,
    );
    rerender(
      <Modal title="T" onClose={second}>
        <button type="button">x</button>
      </Modal>,
    );
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledTimes(1);
  });
});

describe('Modal and live regions', () => {
  it('leaves a live region outside inert, so a toast is still announced while the dialog is open', () => {
    render(
      <>
        <div>
          <p data-testid="page">Page</p>
          <section aria-live="polite" data-testid="toasts" />
        </div>
        <Modal title="T" onClose={() => {}}>
          <button type="button">In</button>
        </Modal>
      </>,
    );
    expect(screen.getByTestId('page').closest('[inert]')).toBeTruthy();
    expect(screen.getByTestId('toasts').closest('[inert]')).toBeNull();
    expect(screen.getByRole('dialog').closest('[inert]')).toBeNull();
  });
});

describe('Modal and content that arrives later', () => {
  it('makes content rendered behind the open dialog inert too (a list replacing its loading status)', async () => {
    function Page({ loaded }: { loaded: boolean }) {
      return <div>{loaded ? <a href="/x">Loaded link</a> : <p role="status">Loading…</p>}</div>;
    }
    const { rerender } = render(
      <>
        <Page loaded={false} />
        <Modal title="T" onClose={() => {}}>
          <button type="button">In</button>
        </Modal>
      </>,
    );
    rerender(
      <>
        <Page loaded />
        <Modal title="T" onClose={() => {}}>
          <button type="button">In</button>
        </Modal>
      </>,
    );
    await waitFor(() => expect(screen.getByText('Loaded link').closest('[inert]')).toBeTruthy());
    expect(screen.getByRole('dialog').closest('[inert]')).toBeNull();
  });
});
