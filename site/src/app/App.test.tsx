import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, stubFetch } from '../test/utils';

// The shell is under test, not the feature pages (their owners test those).
vi.mock('../features/portfolio/pages/HomePage', () => ({ default: () => <h1>Home page</h1> }));
vi.mock('../features/blog/pages/BlogPage', () => ({ default: () => <h1>Blog page</h1> }));

const SITE = {
  contacts: {
    email: 'owner@example.org',
    phones: ['+380 00 000 0001', '+380 00 000 0002'],
    city: 'Kyiv',
    github: 'https://github.com/example',
    linkedin: 'example',
    telegram: '@example',
  },
  donation: {},
};

async function loadApp() {
  vi.resetModules();
  return (await import('./App')).App;
}

beforeEach(() => {
  window.history.replaceState(null, '', '/');
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('App shell', () => {
  it('shows only the brand and the Russian loader until i18n is ready, then the whole shell', async () => {
    const ip = deferred<Response>();
    stubFetch({
      '/api/ip': () => ip.promise,
      '/api/site': () => json(SITE),
      'POST /api/activity/log': () => new Response(null, { status: 204 }),
    });
    const App = await loadApp();
    render(<App />);

    expect(screen.getByText('Загрузка...')).toBeTruthy();
    expect(screen.getByText('DevHub')).toBeTruthy();
    expect(screen.queryByRole('navigation')).toBeNull();
    expect(screen.queryByRole('contentinfo')).toBeNull();

    ip.resolve(json({ ip: '203.0.113.9', country: 'Ukraine', countryCode: 'UA' }));
    const nav = await screen.findByRole('navigation', { name: 'Головна навігація' });
    expect(within(nav).getByRole('link', { name: 'Посиденьки' })).toBeTruthy();
    expect(screen.getByText('Загрузка...')).toBeTruthy(); // still there right after ready
    await waitFor(() => expect(screen.queryByText('Загрузка...')).toBeNull());
  });

  it('renders the page, the footer from /api/site, and logs page_load, guest_visit and route_change', async () => {
    localStorage.setItem('preferredLanguage', 'en');
    const fetch = stubFetch({
      '/api/site': () => json(SITE),
      'POST /api/activity/log': () => new Response(null, { status: 204 }),
    });
    const App = await loadApp();
    render(<App />);

    expect(await screen.findByRole('heading', { level: 1, name: 'Home page' })).toBeTruthy();

    const footer = screen.getByRole('contentinfo');
    await waitFor(() => expect(within(footer).getByText('owner@example.org')).toBeTruthy());
    expect(within(footer).getByRole('link', { name: /owner@example.org/ }).getAttribute('href')).toBe(
      'mailto:owner@example.org',
    );
    expect(within(footer).getByText('+380 00 000 0001')).toBeTruthy();
    expect(within(footer).getByText('+380 00 000 0002')).toBeTruthy();
    expect(within(footer).getByText('Kyiv')).toBeTruthy();
    expect(within(footer).getByRole('link', { name: 'GitHub' }).getAttribute('href')).toBe('https://github.com/example');
    expect(within(footer).getByRole('link', { name: 'LinkedIn' }).getAttribute('href')).toBe(
      'https://www.linkedin.com/in/example',
    );
    expect(within(footer).getByRole('link', { name: 'Telegram' }).getAttribute('href')).toBe('https://t.me/example');
    expect(within(footer).getByText(new RegExp(`© ${new Date().getFullYear()}`))).toBeTruthy();
    expect(within(footer).getByRole('link', { name: 'Privacy' }).getAttribute('href')).toBe('/privacy');
    expect(within(footer).getByRole('link', { name: 'Terms' }).getAttribute('href')).toBe('/terms');

    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    fireEvent.click(within(nav).getByRole('link', { name: 'Blog' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Blog page' })).toBeTruthy();

    const events = () =>
      fetch.mock.calls
        .filter((c) => String(c[0]) === '/api/activity/log')
        .map((c) => JSON.parse(String((c[1] as RequestInit).body)));
    await waitFor(() =>
      expect(events().map((e) => e.action)).toEqual(['page_load', 'guest_visit', 'route_change']),
    );
    expect(events()[2].details).toEqual({ from: '/', to: '/blog' });
  });

  it('an unknown path renders the not-found page inside the shell', async () => {
    localStorage.setItem('preferredLanguage', 'en');
    window.history.replaceState(null, '', '/definitely/not/here');
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    stubFetch({ '/api/site': () => json(SITE), 'POST /api/activity/log': () => new Response(null, { status: 204 }) });
    const App = await loadApp();
    render(<App />);
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Main navigation' })).toBeTruthy();
  });
});
