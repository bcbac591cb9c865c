import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initTestI18n, json, renderWithShell, stubFetch } from '../../../test/utils';
import IpPage from './IpPage';

// The page's states against a stubbed /api/ip: loading (Refresh, Export and Share disabled),
// error under an error heading, loaded with the flag and Unknown fields.

beforeAll(async () => {
  await initTestI18n('en');
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const record = {
  ip: '81.1.2.3',
  country: 'Ukraine',
  countryCode: 'UA',
  region: 'Unknown',
  city: 'Kyiv',
  postal: 'Unknown',
  latitude: null,
  longitude: null,
  timezone: 'Europe/Kyiv',
  org: 'Kyivstar',
  asn: 15895,
  hostname: 'Unknown',
  acceptLanguage: 'en-US,en;q=0.9',
};

describe('IpPage', () => {
  it('loading, then loaded: buttons follow the data', async () => {
    let answer: (r: Response) => void = () => {};
    stubFetch({ '/api/ip': () => new Promise<Response>((r) => (answer = r)) });
    renderWithShell(<IpPage />);
    expect(await screen.findByText('Loading IP data…')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Refresh' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Export' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Share' }) as HTMLButtonElement).disabled).toBe(true);
    answer(json(record));
    expect((await screen.findByTestId('ip-address')).textContent).toContain('81.1.2.3');
    await waitFor(() => expect((screen.getByRole('button', { name: 'Refresh' }) as HTMLButtonElement).disabled).toBe(false));
    expect((screen.getByRole('button', { name: 'Export' }) as HTMLButtonElement).disabled).toBe(false);
    expect(screen.getByText('🇺🇦')).toBeTruthy();
    expect(screen.getByText('AS15895')).toBeTruthy();
    expect(screen.getByText('Kyivstar')).toBeTruthy();
    expect(screen.getByTestId('last-updated').textContent).toMatch(/Last updated: \d{2}:\d{2}:\d{2}/);
  });

  it('an error shows under the error heading; Export and Share stay disabled', async () => {
    stubFetch({ '/api/ip': () => json({ status: 500, message: 'boom', data: null }, 500) });
    renderWithShell(<IpPage />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Error');
    expect(alert.textContent).toContain('Could not retrieve IP data');
    expect((screen.getByRole('button', { name: 'Export' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Share' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('copy shows a check mark, then the copy icon again after 2 s', async () => {
    stubFetch({ '/api/ip': () => json(record) });
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderWithShell(<IpPage />);
    await screen.findByTestId('ip-address');
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      fireEvent.click(screen.getByRole('button', { name: 'Copy the IP address' }));
      await waitFor(() => expect(screen.getByRole('button', { name: 'Copy the IP address' }).textContent).toContain('✓'));
      expect(writeText).toHaveBeenCalledWith('81.1.2.3');
      await act(() => vi.advanceTimersByTimeAsync(1900));
      expect(screen.getByRole('button', { name: 'Copy the IP address' }).textContent).toContain('✓');
      await act(() => vi.advanceTimersByTimeAsync(100));
      const copy = screen.getByRole('button', { name: 'Copy the IP address' });
      expect(copy.textContent).not.toContain('✓');
      // the copy picture is drawn, not a text sign some fonts lack
      expect(copy.textContent).toBe('');
      expect(copy.querySelector('svg')).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });

  it('says what is not known in the reader’s language (the lookup answers "Unknown")', async () => {
    await initTestI18n('uk');
    try {
      stubFetch({ '/api/ip': () => json({ ...record, country: '', countryCode: '', city: 'Unknown' }) });
      renderWithShell(<IpPage />);
      await screen.findByTestId('ip-address');
      const card = screen.getByRole('region', { name: 'Дані IP' });
      // country, city, region, postal code, coordinates and host name
      expect(card.textContent!.match(/Невідомо/g)).toHaveLength(6);
      expect(card.textContent).not.toMatch(/unknown/i);
    } finally {
      await initTestI18n('en');
    }
  });

  it('says yes or no in the reader’s language in the consistency report, not true/false', async () => {
    await initTestI18n('uk');
    try {
      stubFetch({ '/api/ip': () => json(record) });
      renderWithShell(<IpPage />);
      const row = (await screen.findByRole('rowheader', { name: 'Мобільність за User-Agent і за Client Hints' })).closest('tr')!;
      // jsdom's User-Agent is not a phone's: the User-Agent side says no
      expect(row.querySelectorAll('td')[0].textContent).toBe('ні');
      expect(row.textContent).not.toMatch(/true|false/);
    } finally {
      await initTestI18n('en');
    }
  });

  it('leaves unknown parts out of the browser panel and names the colour depth’s unit in the reader’s language', async () => {
    await initTestI18n('uk');
    try {
      stubFetch({ '/api/ip': () => json(record) });
      renderWithShell(<IpPage />);
      const panel = await screen.findByRole('region', { name: "Браузер, система та з'єднання" });
      const value = (label: string) => within(panel).getByText(label, { selector: 'dt' }).nextElementSibling!.textContent;
      // jsdom's User-Agent names neither an OS version nor a device: "Linux unknown" and
      // "unknown unknown" were shown
      expect(value('Операційна система')).toMatch(/^linux$/i);
      expect(value('Пристрій')).toBe('Невідомо');
      expect(value('Глибина кольору')).toBe('24 біт');
      expect(panel.textContent).not.toMatch(/unknown|\bbit\b/);
    } finally {
      await initTestI18n('en');
    }
  });
});
