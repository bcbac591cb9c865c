import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { initTestI18n, renderWithShell } from '../../../test/utils';
import { useRefreshQuota } from '../api';
import { QuotaUsage } from './QuotaUsage';

// The storage line: limits in the page's units and language, unlimited spelled out, shown on
// the profile (app/ProfileRoute), and asked for again when an upload or deletion says so.

let quota: unknown;
let fetchMock: ReturnType<typeof vi.fn>;

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

beforeAll(async () => {
  await initTestI18n('en');
});
beforeEach(() => {
  localStorage.setItem('token', 'tok');
  quota = { used: { bytes: 1536, files: 3 }, limit: { bytes: null, files: null } };
  fetchMock = vi.fn(async (url: string) => {
    if (url === '/api/auth/profile') return json({ id: 1, email: 'a@example.com', name: 'A', role: 'admin' });
    if (url === '/api/auth/quota') return json(quota);
    return json({ message: 'no' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const quotaCalls = () => fetchMock.mock.calls.filter(([u]) => u === '/api/auth/quota').length;

describe('QuotaUsage', () => {
  it('says unlimited, without a meter', async () => {
    renderWithShell(<QuotaUsage className="profile-overview__quota" />);
    expect((await screen.findByTestId('quota-usage')).textContent).toBe('Storage: 1.50 KB used (unlimited), 3 files (unlimited)');
    expect(screen.queryByRole('meter')).toBeNull();
  });

  it('keeps its place while it loads: an unseen line and meter of the usual size, then the answer in it', async () => {
    let answer: (r: Response) => void = () => undefined;
    quota = { used: { bytes: 1536, files: 3 }, limit: { bytes: 10 * 2 ** 30, files: 10_000 } };
    fetchMock.mockImplementation(async (url: string) => {
      if (url === '/api/auth/profile') return json({ id: 2, email: 'u@example.com', name: 'U', role: 'user' });
      if (url === '/api/auth/quota') return new Promise<Response>((resolve) => (answer = resolve));
      return json({ message: 'no' }, 404);
    });
    const { container } = renderWithShell(<QuotaUsage />);
    await waitFor(() => expect(container.querySelector('.files-quota--pending')).not.toBeNull());
    const pending = container.querySelector('.files-quota--pending')!;
    expect(pending.getAttribute('aria-hidden')).toBe('true');
    expect(pending.querySelector('meter')).not.toBeNull(); // a user's default limits have a meter
    expect(screen.queryByTestId('quota-usage')).toBeNull();
    answer(json(quota));
    expect((await screen.findByTestId('quota-usage')).textContent).toBe('Storage: 1.50 KB of 10.00 GB used, 3 of 10,000 files');
    expect(container.querySelector('.files-quota--pending')).toBeNull();
    expect(screen.getByRole('meter')).toBeTruthy();
  });

  it('is asked for again after a change', async () => {
    function Refresh() {
      const refresh = useRefreshQuota();
      return (
        <button type="button" onClick={refresh}>
          refresh
        </button>
      );
    }
    renderWithShell(
      <>
        <QuotaUsage />
        <Refresh />
      </>,
    );
    expect((await screen.findByTestId('quota-usage')).textContent).toBe('Storage: 1.50 KB used (unlimited), 3 files (unlimited)');
    quota = { used: { bytes: 9 * 1024 * 1024, files: 1 }, limit: { bytes: 10 * 1024 * 1024, files: 1 } };
    fireEvent.click(screen.getByRole('button', { name: 'refresh' }));
    await waitFor(() => expect(screen.getByTestId('quota-usage').textContent).toBe('Storage: 9.00 MB of 10.00 MB used, 1 of 1 file'));
    expect(quotaCalls()).toBe(2);
    // The tighter limit fills the meter: 1 of 1 file.
    expect(screen.getByRole('meter', { name: 'Storage used' }).getAttribute('value')).toBe('1');
  });

  it('speaks Ukrainian', async () => {
    await initTestI18n('uk');
    try {
      quota = { used: { bytes: 2048, files: 5 }, limit: { bytes: 4096, files: 10 } };
      renderWithShell(<QuotaUsage />);
      expect((await screen.findByTestId('quota-usage')).textContent).toBe('Сховище: використано 2,00 КБ з 4,00 КБ, 5 з 10 файлів');
    } finally {
      await initTestI18n('en');
    }
  });

  it('shows nothing to a guest and asks nothing', async () => {
    localStorage.removeItem('token');
    renderWithShell(<QuotaUsage />);
    await Promise.resolve();
    expect(screen.queryByTestId('quota-usage')).toBeNull();
    expect(quotaCalls()).toBe(0);
  });
});
