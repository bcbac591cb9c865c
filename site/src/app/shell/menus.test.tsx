// The header's menu buttons (Tools, language) and the mobile drawer, by keyboard.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../lib/i18n';
import { initTestI18n, renderWithShell, stubFetch } from '../../test/utils';
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

const key = (k: string, o: Partial<KeyboardEventInit> = {}) =>
  fireEvent.keyDown(document.activeElement ?? document.body, { key: k, ...o });
const focused = () => document.activeElement as HTMLElement;

const menus = [
  {
    name: 'Tools',
    button: () => screen.getByRole('button', { name: 'Tools' }),
    menu: () => screen.queryByRole('menu', { name: 'Tools menu' }),
    items: ['Development tools', 'Camera', 'Microphone', 'Your IP', 'Tone generator', 'Skills'],
    role: 'menuitem',
  },
  {
    name: 'language',
    button: () => screen.getByRole('button', { name: /Choose language/ }),
    menu: () => screen.queryByRole('menu', { name: 'Choose language' }),
    items: ['Українська', 'Русский', 'English'],
    role: 'menuitemradio',
  },
] as const;

describe.each(menus)('the $name menu button', ({ button, menu, items, role }) => {
  it('announces a menu and points at it only while open', () => {
    renderWithShell(<Header ready />);
    const b = button();
    expect(b.getAttribute('aria-haspopup')).toBe('menu');
    expect(b.getAttribute('aria-expanded')).toBe('false');
    expect(b.hasAttribute('aria-controls')).toBe(false);
    fireEvent.click(b);
    expect(b.getAttribute('aria-expanded')).toBe('true');
    expect(b.getAttribute('aria-controls')).toBe(menu()!.id);
    const list = within(menu()!).getAllByRole(role);
    expect(list.map((i) => i.textContent)).toEqual([...items]);
    // one Tab stop: the items are reached by arrows, not by Tab
    expect(list.every((i) => i.getAttribute('tabindex') === '-1')).toBe(true);
  });

  it('opening moves the focus to the first item; arrows, Home and End move and wrap', () => {
    renderWithShell(<Header ready />);
    button().focus();
    fireEvent.click(button());
    const names = () => focused().textContent;
    expect(names()).toBe(items[0]);
    key('ArrowDown');
    expect(names()).toBe(items[1]);
    key('End');
    expect(names()).toBe(items[items.length - 1]);
    key('ArrowDown');
    expect(names()).toBe(items[0]);
    key('ArrowUp');
    expect(names()).toBe(items[items.length - 1]);
    key('Home');
    expect(names()).toBe(items[0]);
  });

  it('Arrow Down on the button opens on the first item, Arrow Up on the last', () => {
    renderWithShell(<Header ready />);
    button().focus();
    key('ArrowDown');
    expect(menu()).toBeTruthy();
    expect(focused().textContent).toBe(items[0]);
    key('Escape');
    key('ArrowUp');
    expect(focused().textContent).toBe(items[items.length - 1]);
  });

  it('Escape closes it and returns the focus to the button', () => {
    renderWithShell(<Header ready />);
    button().focus();
    key('ArrowDown');
    key('ArrowDown');
    key('Escape');
    expect(menu()).toBeNull();
    expect(focused()).toBe(button());
    expect(button().getAttribute('aria-expanded')).toBe('false');
  });

  it('Tab closes it', () => {
    renderWithShell(<Header ready />);
    button().focus();
    key('ArrowDown');
    key('Tab');
    expect(menu()).toBeNull();
  });

  it('a press outside closes it, a press inside does not', () => {
    renderWithShell(<Header ready />, { extra: <p data-testid="outside">elsewhere</p> });
    fireEvent.click(button());
    fireEvent.mouseDown(menu()!);
    expect(menu()).toBeTruthy();
    fireEvent.mouseDown(screen.getByTestId('outside'));
    expect(menu()).toBeNull();
  });
});

describe('the language menu', () => {
  it('marks the current language as checked and switches by Enter on an item', async () => {
    renderWithShell(<Header ready />);
    const b = menus[1].button();
    b.focus();
    key('ArrowDown');
    expect(screen.getByRole('menuitemradio', { name: 'English' }).getAttribute('aria-checked')).toBe('true');
    expect(screen.getByRole('menuitemradio', { name: 'Українська' }).getAttribute('aria-checked')).toBe('false');
    // Enter on a button is a click
    fireEvent.click(focused());
    await waitFor(() => expect(screen.getByRole('button', { name: /Оберіть мову/ })).toBeTruthy());
    expect(screen.queryByRole('menu')).toBeNull();
    expect(focused()).toBe(screen.getByRole('button', { name: /Оберіть мову/ }));
    expect(localStorage.getItem('preferredLanguage')).toBe('uk');
  });
});

describe('the mobile drawer', () => {
  /** Presses the menu button and waits for the drawer (its own chunk) to take the focus. */
  const open = async () => {
    const b = screen.getByRole('button', { name: 'Open menu' });
    b.focus();
    fireEvent.click(b);
    const d = await screen.findByRole('navigation', { name: 'Menu' });
    await waitFor(() => expect(focused()).toBe(within(d).getByRole('button', { name: 'Close menu' })));
    return b;
  };
  const drawer = () => screen.queryByRole('navigation', { name: 'Menu' });

  it('takes the focus to its close button and makes the page behind inert', async () => {
    renderWithShell(<Header ready />, { extra: <a href="#x">behind</a> });
    await open();
    expect(focused()).toBe(within(drawer()!).getByRole('button', { name: 'Close menu' }));
    expect(screen.getByRole('banner').closest('[inert]')).toBeTruthy();
    expect(screen.getByText('behind').closest('[inert]')).toBeTruthy();
    expect(drawer()!.closest('[inert]')).toBeNull();
  });

  it('keeps Tab and Shift+Tab inside', async () => {
    renderWithShell(<Header ready />);
    await open();
    const inside = drawer()!;
    const close = within(inside).getByRole('button', { name: 'Close menu' });
    key('Tab', { shiftKey: true });
    const last = within(inside).getByRole('link', { name: 'Sign up' });
    expect(focused()).toBe(last);
    key('Tab');
    expect(focused()).toBe(close);
  });

  it.each([
    ['Escape', () => key('Escape')],
    ['its close button', () => fireEvent.click(within(drawer()!).getByRole('button', { name: 'Close menu' }))],
  ])('%s closes it, lifts inert and returns the focus to the menu button', async (_name, act) => {
    renderWithShell(<Header ready />);
    const b = await open();
    act();
    expect(drawer()).toBeNull();
    expect(document.querySelector('[inert]')).toBeNull();
    expect(focused()).toBe(b);
    expect(b.getAttribute('aria-expanded')).toBe('false');
  });
});
