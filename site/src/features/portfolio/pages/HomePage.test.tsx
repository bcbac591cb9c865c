import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../lib/i18n';
import { initTestI18n, json, renderWithShell, stubFetch } from '../../../test/utils';
import en from '../home/locales/en.json';
import ru from '../home/locales/ru.json';
import uk from '../home/locales/uk.json';
import HomePage from './HomePage';

beforeEach(async () => {
  await initTestI18n('en');
  stubFetch(); // no profile: GET /api/profile answers 404
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** Renders the home page and waits for the profile's answer (the cards come with it). */
async function renderHome() {
  renderWithShell(<HomePage />);
  await screen.findByRole('list');
}

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

  it('has one card per section in the spec order, then the catch-all card; only built sections link', async () => {
    await renderHome();
    const rows = cards().map((card) => {
      const link = within(card).queryByRole('link');
      return [card.querySelector('.home-card__title')!.textContent, link?.getAttribute('href') ?? null];
    });
    expect(rows).toEqual([
      ['Skills', '/skills'],
      ['File cloud', '/filecloud'],
      ['Emulator and games', '/games'],
      ['Alavar games', '/alavar'],
      ['Windows programs', '/programs'],
      ['Forum', '/forum'],
      ['Blog', '/blog'],
      ['Page not found', null],
    ]);
  });

  it('every card has a title, a description, and an inline SVG icon; a link is described by it', async () => {
    await renderHome();
    for (const card of cards()) {
      expect(card.querySelector('.home-card__title')!.textContent!.length).toBeGreaterThan(2);
      expect(card.querySelector('.home-card__text')!.textContent!.length).toBeGreaterThan(10);
      expect(card.querySelector('svg[aria-hidden="true"] path')).not.toBeNull();
      const link = within(card).queryByRole('link');
      if (link) expect(document.getElementById(link.getAttribute('aria-describedby')!)!.closest('li')).toBe(card);
    }
  });

  it('marks only the sections that do not exist yet as coming soon, without a link to the not-found page', async () => {
    await renderHome();
    const soon = cards().filter((card) => within(card).queryByText('Coming soon'));
    expect(soon.map((card) => card.querySelector('.home-card__title')!.textContent)).toEqual([]);
    for (const card of soon) expect(within(card).queryByRole('link')).toBeNull();
  });

  it('the catch-all card shows the pattern and describes the not-found page without a dead link', async () => {
    await renderHome();
    const card = cards().at(-1)!;
    expect(within(card).getByText(/^\* — any other path$/)).toBeTruthy();
    expect(within(card).getByText(/not-found page/)).toBeTruthy();
    expect(within(card).queryByRole('link')).toBeNull();
  });

  it('a section card navigates to its section', async () => {
    await renderHome();
    fireEvent.click(screen.getByRole('link', { name: 'Blog' }));
    expect(location()).toBe('/blog');
  });

  it('has its own uk/en/ru selector, starting in the site language, that leaves the site language alone', async () => {
    await act(() => i18n.changeLanguage('ru'));
    await renderHome();
    expect(screen.getByRole('heading', { level: 1, name: 'Добро пожаловать в DevHub' })).toBeTruthy();
    const select = screen.getByRole('combobox') as HTMLSelectElement;
    expect([...select.options].map((o) => o.value)).toEqual(['uk', 'en', 'ru']);
    fireEvent.change(select, { target: { value: 'uk' } });
    expect(screen.getByRole('heading', { level: 1, name: 'Ласкаво просимо до DevHub' })).toBeTruthy();
    expect(screen.getByText(/Сайт ще в розробці/)).toBeTruthy();
    expect(screen.queryAllByText('Незабаром')).toHaveLength(0);
    expect(i18n.language).toBe('ru');
    fireEvent.change(select, { target: { value: 'en' } });
    expect(screen.getByRole('heading', { level: 1, name: 'Welcome to DevHub' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Skills' }).getAttribute('href')).toBe('/skills');
  });

  it('holds the place of the owner and the cards with one placeholder until the profile has answered', async () => {
    let answer: (r: Response) => void = () => undefined;
    stubFetch({ '/api/profile': () => new Promise<Response>((resolve) => (answer = resolve)) });
    renderWithShell(<HomePage />);
    // the hero is there at once; the cards wait with the owner block, so the owner cannot push them down
    expect(screen.getByRole('heading', { level: 1, name: 'Welcome to DevHub' })).toBeTruthy();
    expect(screen.getByText('Loading…').closest('[role="status"]')).not.toBeNull();
    expect(screen.queryByRole('list')).toBeNull();
    answer(json({ status: 404, message: 'no profile', data: null }, 404));
    expect(await screen.findByRole('link', { name: 'Blog' })).toBeTruthy();
    expect(screen.queryByText('Loading…')).toBeNull();
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
