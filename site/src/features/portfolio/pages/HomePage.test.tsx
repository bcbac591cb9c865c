import { act, fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { i18n } from '../../../lib/i18n';
import { initTestI18n, renderWithShell } from '../../../test/utils';
import en from '../home/locales/en.json';
import ru from '../home/locales/ru.json';
import uk from '../home/locales/uk.json';
import HomePage from './HomePage';

beforeEach(async () => {
  await initTestI18n('en');
});

const location = () => screen.getByTestId('location').textContent;
const cardsList = () => screen.getByRole('list');
const cards = () => within(cardsList()).getAllByRole('listitem');

describe('HomePage', () => {
  it('shows the hero: title, intro and the under-construction message', () => {
    renderWithShell(<HomePage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Welcome to DevHub' })).toBeTruthy();
    // the only heading named like the not-found page is the not-found page's own
    expect(screen.queryByRole('heading', { name: 'Page not found' })).toBeNull();
    expect(screen.getByText(/personal developer hub/)).toBeTruthy();
    expect(screen.getByText(/still under construction/)).toBeTruthy();
    expect(document.title).toBe('Home · DevHub');
  });

  it('has one card per section in the spec order, then the catch-all card', () => {
    renderWithShell(<HomePage />);
    const links = cards().map((card) => within(card).getByRole('link'));
    expect(links.map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Skills', '/skills'],
      ['File cloud', '/filecloud'],
      ['Emulator and games', '/games'],
      ['Alavar games', '/alavar'],
      ['Windows programs', '/programs'],
      ['Forum', '/forum'],
      ['Blog', '/blog'],
      ['Page not found', '/404'],
    ]);
  });

  it('every card has a title, a description its link is described by, and an inline SVG icon', () => {
    renderWithShell(<HomePage />);
    for (const card of cards()) {
      const link = within(card).getByRole('link');
      expect(link.textContent!.length).toBeGreaterThan(2);
      const description = document.getElementById(link.getAttribute('aria-describedby')!)!;
      expect(card.contains(description)).toBe(true);
      expect(description.textContent!.length).toBeGreaterThan(10);
      expect(card.querySelector('svg[aria-hidden="true"] path')).not.toBeNull();
    }
  });

  it('marks only the sections that do not exist yet as coming soon', () => {
    renderWithShell(<HomePage />);
    const soon = cards()
      .filter((card) => within(card).queryByText('Coming soon'))
      .map((card) => within(card).getByRole('link').getAttribute('href'));
    expect(soon).toEqual(['/alavar', '/programs', '/forum']);
    // the badge is part of what the link is described by
    const forum = screen.getByRole('link', { name: 'Forum' });
    expect(document.getElementById(forum.getAttribute('aria-describedby')!)!.textContent).toContain('Coming soon');
  });

  it('the catch-all card shows the pattern and leads to a path no route serves', () => {
    renderWithShell(<HomePage />);
    const card = cards().at(-1)!;
    expect(within(card).getByText(/^\* — any other path$/)).toBeTruthy();
    fireEvent.click(within(card).getByRole('link', { name: 'Page not found' }));
    expect(location()).toBe('/404');
  });

  it('a section card navigates to its section', () => {
    renderWithShell(<HomePage />);
    fireEvent.click(screen.getByRole('link', { name: 'Blog' }));
    expect(location()).toBe('/blog');
  });

  it('follows the shell language (no selector of its own) and switches with it', async () => {
    renderWithShell(<HomePage />);
    expect(screen.queryByRole('combobox')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
    await act(() => i18n.changeLanguage('uk'));
    expect(screen.getByRole('heading', { level: 1, name: 'Ласкаво просимо до DevHub' })).toBeTruthy();
    expect(screen.getByText(/Сайт ще в розробці/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Сторінку не знайдено' }).getAttribute('href')).toBe('/404');
    expect(screen.getAllByText('Незабаром')).toHaveLength(3);
    await act(() => i18n.changeLanguage('ru'));
    expect(screen.getByRole('heading', { level: 1, name: 'Добро пожаловать в DevHub' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Навыки' }).getAttribute('href')).toBe('/skills');
  });
});

describe('home translations', () => {
  function keys(obj: object, prefix = ''): string[] {
    return Object.entries(obj).flatMap(([k, v]) =>
      typeof v === 'object' && v !== null ? keys(v as object, `${prefix}${k}.`) : [`${prefix}${k}`],
    );
  }
  it('uk, ru and en have the same keys, none empty', () => {
    const expected = keys(en).sort();
    expect(keys(uk).sort()).toEqual(expected);
    expect(keys(ru).sort()).toEqual(expected);
    for (const bundle of [en, uk, ru]) {
      for (const k of expected) {
        const value = k.split('.').reduce<unknown>((o, p) => (o as Record<string, unknown>)[p], bundle);
        expect(typeof value === 'string' && value.trim() !== '', k).toBe(true);
      }
    }
  });
});
