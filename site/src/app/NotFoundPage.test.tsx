import { fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { i18n } from '../lib/i18n';
import { initTestI18n, LocationProbe } from '../test/utils';
import NotFoundPage from './NotFoundPage';

beforeAll(async () => {
  await initTestI18n('en');
});
afterEach(() => {
  vi.restoreAllMocks();
});

function renderAt(entries: string[]) {
  const router = createMemoryRouter(
    [
      {
        path: '*',
        element: (
          <>
            <NotFoundPage />
            <LocationProbe />
          </>
        ),
      },
    ],
    { initialEntries: entries, initialIndex: entries.length - 1 },
  );
  render(
    <I18nextProvider i18n={i18n}>
      <RouterProvider router={router} />
    </I18nextProvider>,
  );
}

const location = () => screen.getByTestId('location').textContent;

describe('NotFoundPage', () => {
  it('shows the page with the missing path and logs the visit with a warning (not an error)', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const error = vi.spyOn(console, 'error');
    renderAt(['/no/such/page']);
    expect(screen.getByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
    expect(screen.getByText(/There is no page at \/no\/such\/page/)).toBeTruthy();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('/no/such/page'));
    expect(error).not.toHaveBeenCalled();
  });

  it('the home button goes to /', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    renderAt(['/missing']);
    fireEvent.click(screen.getByRole('button', { name: 'Home' }));
    expect(location()).toBe('/');
  });

  it('the emulators button goes to /games', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    renderAt(['/missing']);
    fireEvent.click(screen.getByRole('button', { name: 'Emulators' }));
    expect(location()).toBe('/games');
  });

  it('the back button goes back in history', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    renderAt(['/blog', '/missing']);
    // memory router keeps its index in its own state; emulate the browser's history.state
    vi.spyOn(window.history, 'state', 'get').mockReturnValue({ idx: 1 });
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByText('/blog')).toBeTruthy();
  });

  it('the back button on a directly opened page goes home', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    renderAt(['/missing']);
    vi.spyOn(window.history, 'state', 'get').mockReturnValue({ idx: 0 });
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(location()).toBe('/');
  });

  it('has quick links to the blog, the file cloud and the discussion', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    renderAt(['/missing']);
    expect(screen.getByRole('link', { name: 'Blog' }).getAttribute('href')).toBe('/blog');
    expect(screen.getByRole('link', { name: 'File cloud' }).getAttribute('href')).toBe('/filecloud');
    expect(screen.getByRole('link', { name: 'Discussion' }).getAttribute('href')).toBe('/chat');
  });
});
