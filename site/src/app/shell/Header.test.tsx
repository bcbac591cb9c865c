import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Link } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../lib/i18n';
import { initTestI18n, json, renderWithShell, stubFetch } from '../../test/utils';
import { Header } from './Header';

beforeAll(async () => {
  await initTestI18n('en');
});

beforeEach(() => {
  stubFetch();
});

afterEach(async () => {
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

const menuButton = () => screen.getByRole('button', { name: /open menu|close menu/i });
const sidebar = () => screen.queryByRole('navigation', { name: 'Menu' });
/** Presses the menu button and waits for the drawer (its own chunk) to be in. */
const openSidebar = async () => {
  fireEvent.click(menuButton());
  return screen.findByRole('navigation', { name: 'Menu' });
};

describe('Header before localization is ready', () => {
  it('shows only the brand', () => {
    renderWithShell(<Header ready={false} />);
    expect(screen.getByText('DevHub')).toBeTruthy();
    expect(screen.queryByRole('navigation')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.queryByText('Blog')).toBeNull();
  });
});

describe('Header brand', () => {
  const site = { name: { en: "Ann's hub", uk: 'Хаб Анни' }, subtitle: { en: 'Notes and tools' } };

  it('is the profile\'s site name and subtitle in the interface\'s language, English otherwise', async () => {
    stubFetch({ 'GET /api/profile': () => json({ site }) });
    renderWithShell(<Header ready />);
    const brand = await screen.findByRole('link', { name: /Ann's hub/ });
    expect(brand.getAttribute('href')).toBe('/');
    expect(within(brand).getByText('Notes and tools')).toBeTruthy();
    await act(() => i18n.changeLanguage('uk'));
    expect(within(brand).getByText('Хаб Анни')).toBeTruthy();
    expect(within(brand).getByText('Notes and tools')).toBeTruthy();
  });

  it('is the locale\'s DevHub and subtitle without a site block or a profile', async () => {
    const fetch = stubFetch({ 'GET /api/profile': () => json({ site: {} }) });
    renderWithShell(<Header ready />);
    await waitFor(() => expect(fetch.mock.calls.some(([u]) => String(u).includes('/api/profile'))).toBe(true));
    const brand = screen.getByRole('link', { name: /DevHub/ });
    expect(within(brand).getByText('Developer hub')).toBeTruthy();
    await act(() => i18n.changeLanguage('ru'));
    expect(within(brand).getByText('Хаб разработчика')).toBeTruthy();
  });
});

describe('Header', () => {
  it('has the brand link, tools dropdown, section links and the language selector', () => {
    renderWithShell(<Header ready />);
    expect(screen.getByRole('link', { name: /DevHub/ }).getAttribute('href')).toBe('/');
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    for (const [name, href] of [
      ['Chat', '/chat'],
      ['Games', '/games'],
      ['Blog', '/blog'],
      ['Files', '/filecloud'],
      ['Profile', '/profile'],
    ]) {
      expect(within(nav).getByRole('link', { name }).getAttribute('href')).toBe(href);
    }
    expect(within(nav).getByRole('button', { name: 'Tools' })).toBeTruthy();
    expect(screen.getByRole('button', { name: /Choose language/ })).toBeTruthy();
    expect(within(nav).queryByRole('link', { name: 'Admin panel' })).toBeNull();
  });

  it('the menu button opens the sidebar, which has the one close button', async () => {
    renderWithShell(<Header ready />);
    const btn = menuButton();
    expect(btn.getAttribute('aria-expanded')).toBe('false');
    expect(btn.getAttribute('aria-label')).toBe('Open menu');
    expect(btn.querySelector('[data-icon="menu"]')).toBeTruthy();
    expect(sidebar()).toBeNull();

    fireEvent.click(btn);
    expect(btn.getAttribute('aria-expanded')).toBe('true');
    const drawer = await screen.findByRole('navigation', { name: 'Menu' });
    // one close button, the drawer's: the header's menu button (inert behind it) stays a menu button
    expect(btn.querySelector('[data-icon="menu"]')).toBeTruthy();
    expect(document.querySelectorAll('[data-icon="close"]')).toHaveLength(1);
    expect(screen.getAllByRole('button', { name: 'Close menu' })).toEqual([within(drawer).getByRole('button', { name: 'Close menu' })]);

    fireEvent.click(btn);
    expect(btn.getAttribute('aria-expanded')).toBe('false');
    expect(sidebar()).toBeNull();
  });

  it('an outside click closes the sidebar; a click inside does not', async () => {
    renderWithShell(<Header ready />, { extra: <p data-testid="outside">elsewhere</p> });
    fireEvent.mouseDown(within(await openSidebar()).getByRole('heading', { name: 'Tools' }));
    expect(sidebar()).toBeTruthy();
    fireEvent.mouseDown(screen.getByTestId('outside'));
    expect(sidebar()).toBeNull();
    expect(menuButton().getAttribute('aria-expanded')).toBe('false');
  });

  it('Escape closes the sidebar', async () => {
    renderWithShell(<Header ready />);
    await openSidebar();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(sidebar()).toBeNull();
  });

  it('choosing a sidebar link closes it and navigates', async () => {
    renderWithShell(<Header ready />);
    fireEvent.click(within(await openSidebar()).getByRole('link', { name: 'Blog' }));
    expect(sidebar()).toBeNull();
    expect(screen.getByTestId('location').textContent).toBe('/blog');
  });

  it('the sidebar lists tools, sections and the account items, but no admin panel for guests', async () => {
    renderWithShell(<Header ready />);
    const side = await openSidebar();
    for (const name of ['Camera', 'Microphone', 'Your IP', 'Tone generator', 'Games', 'Blog', 'Files',
      'Personal cabinet', 'Messages', 'Friends', 'Chat']) {
      expect(within(side).getByRole('link', { name })).toBeTruthy();
    }
    // The development tools overview and the skills page are reachable from the drawer too.
    expect(within(side).getByRole('link', { name: 'Development tools' }).getAttribute('href')).toBe('/tools');
    expect(within(side).getByRole('link', { name: 'Skills' }).getAttribute('href')).toBe('/skills');
    expect(within(side).queryByRole('link', { name: 'Admin panel' })).toBeNull();
    expect(within(side).getByRole('link', { name: 'Log in' })).toBeTruthy();
  });

  it.each([
    ['/skills', 'Skills'],
    ['/tools', 'Development tools'],
    ['/tools/camera', 'Camera'],
  ])('on %s the Tools button shows the current section and only %s is the current item', (route, current) => {
    renderWithShell(<Header ready />, { route });
    const toggle = screen.getByRole('button', { name: 'Tools' });
    expect(toggle.classList.contains('is-active')).toBe(true);
    fireEvent.click(toggle);
    const items = within(screen.getByRole('menu', { name: 'Tools menu' })).getAllByRole('menuitem');
    expect(items.filter((i) => i.getAttribute('aria-current') === 'page').map((i) => i.textContent)).toEqual([current]);
  });

  it('the tools dropdown opens, closes on an outside click, and closes on route change', () => {
    renderWithShell(<Header ready />, { extra: <Link to="/games">go to games</Link> });
    const toggle = screen.getByRole('button', { name: 'Tools' });
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const menu = screen.getByRole('menu', { name: 'Tools menu' });
    expect(within(menu).getByRole('menuitem', { name: 'Camera' }).getAttribute('href')).toBe('/tools/camera');
    expect(within(menu).getByRole('menuitem', { name: 'Tone generator' }).getAttribute('href')).toBe('/tools/tone_generator');
    expect(within(menu).getByRole('menuitem', { name: 'Development tools' }).getAttribute('href')).toBe('/tools');
    expect(within(menu).getByRole('menuitem', { name: 'Skills' }).getAttribute('href')).toBe('/skills');

    fireEvent.mouseDown(document.body);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('menu', { name: 'Tools menu' })).toBeNull();

    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    // navigation by a link outside the dropdown (click only, no mousedown)
    fireEvent.click(screen.getByRole('link', { name: 'go to games' }));
    expect(screen.getByTestId('location').textContent).toBe('/games');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
  });

  it('the language selector changes every header text at once and saves the choice', async () => {
    renderWithShell(<Header ready />);
    fireEvent.click(screen.getByRole('button', { name: /Choose language/ }));
    fireEvent.click(screen.getByRole('menuitemradio', { name: /Українська/ }));
    await waitFor(() => expect(screen.getByRole('link', { name: 'Посиденьки' })).toBeTruthy());
    expect(screen.getByRole('link', { name: 'Блог' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Інструменти' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Відкрити меню' })).toBeTruthy();
    expect(localStorage.getItem('preferredLanguage')).toBe('uk');
  });

  it('shows the admin entries only to an admin', async () => {
    localStorage.setItem('token', 'tok');
    const fetch = stubFetch({
      '/api/auth/profile': ({ headers }) =>
        headers.get('Authorization') === 'Bearer tok'
          ? json({ id: 1, email: 'root@example.com', name: 'Root', role: 'admin' })
          : json({ status: 401, message: 'no' }, 401),
    });
    renderWithShell(<Header ready />);
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    await waitFor(() => expect(within(nav).getByRole('link', { name: 'Admin panel' })).toBeTruthy());
    expect(fetch).toHaveBeenCalled();
    const side = await openSidebar();
    expect(within(side).getByRole('link', { name: 'Admin panel' })).toBeTruthy();
    expect(within(side).getByText('Signed in as root@example.com')).toBeTruthy();
    await act(async () => {
      fireEvent.click(within(side).getByRole('button', { name: 'Log out' }));
    });
    expect(localStorage.getItem('token')).toBeNull();
    expect(within(nav).queryByRole('link', { name: 'Admin panel' })).toBeNull();
  });

  it('a non-admin user does not see the admin entries', async () => {
    localStorage.setItem('token', 'tok');
    stubFetch({ '/api/auth/profile': () => json({ id: 2, email: 'u@example.com', name: 'U', role: 'user' }) });
    renderWithShell(<Header ready />);
    fireEvent.click(menuButton());
    await waitFor(() => expect(screen.getByText('Signed in as u@example.com')).toBeTruthy());
    expect(screen.queryByRole('link', { name: 'Admin panel' })).toBeNull();
  });
});
