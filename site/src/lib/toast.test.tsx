import { render, renderHook, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { toast, ToastProvider, TOASTER_PROPS, useToast } from './toast';

describe('toasts', () => {
  it('useToast outside its provider throws the spec message', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => renderHook(() => useToast())).toThrow('useToast must be used within a ToastProvider');
  });

  it('the toaster is top right, dark, with a close button and a 3000 ms default', () => {
    expect(TOASTER_PROPS).toMatchObject({ position: 'top-right', theme: 'dark', closeButton: true, duration: 3000 });
  });

  it('shows a toast of each type with a close button', async () => {
    render(<ToastProvider />);
    toast.success('Saved!');
    toast.error('Broken!');
    toast.info('FYI');
    toast.warning('Careful');
    expect(await screen.findByText('Saved!')).toBeTruthy();
    const types = () =>
      Array.from(document.querySelectorAll('[data-sonner-toast]')).map((el) => el.getAttribute('data-type'));
    await waitFor(() => expect(types().sort()).toEqual(['error', 'info', 'success', 'warning']));
    const toaster = document.querySelector('[data-sonner-toaster]')!;
    expect(toaster.getAttribute('data-x-position')).toBe('right');
    expect(toaster.getAttribute('data-y-position')).toBe('top');
    expect(toaster.getAttribute('data-sonner-theme')).toBe('dark');
    expect(document.querySelectorAll('[data-close-button]').length).toBeGreaterThan(0);
  });

  it('the default type is info, and ids are returned', async () => {
    render(<ToastProvider />);
    const id = toast.show('Plain');
    expect(id).toBeTruthy();
    expect(await screen.findByText('Plain')).toBeTruthy();
    await waitFor(() =>
      expect(screen.getByText('Plain').closest('[data-sonner-toast]')?.getAttribute('data-type')).toBe('info'),
    );
  });
});

describe('toasts for screen readers', () => {
  it('sit in a polite live region that is in the page before the toast, errors as alerts', async () => {
    render(<ToastProvider />);
    toast.info('Heads up');
    toast.error('It failed');
    const info = await screen.findByText('Heads up');
    const region = info.closest('[aria-live]');
    expect(region?.getAttribute('aria-live')).toBe('polite');
    const alert = (await screen.findByText('It failed')).closest('[role="alert"]');
    expect(alert?.textContent).toBe('It failed');
    expect(alert?.closest('[aria-live]')).toBe(region);
    expect(info.closest('[role="alert"]')).toBeNull();
  });
});
