import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { initTestI18n, json, renderWithShell, stubFetch } from '../../../test/utils';
import GamesPage from './GamesPage';

const consoles = {
  success: true,
  data: [
    { id: 'nes', name: 'Nintendo Entertainment System', shortName: 'NES', core: 'fceumm', stats: { games: 2 } },
    { id: 'snes', name: 'Super Nintendo', shortName: 'SNES', core: 'snes9x', stats: { games: 1 } },
  ],
  meta: { total: 2 },
};

function games(list: string[], consoleId: string) {
  return {
    success: true,
    data: list.map((name, i) => ({ id: i + 1, name, path: `/${consoleId}/${name}.rom`, console: consoleId, hasImage: false, imagePath: '' })),
    meta: { total: list.length, page: 1, limit: 100 },
  };
}

function renderPage() {
  return renderWithShell(<GamesPage />, { route: '/games' });
}

describe('GamesPage', () => {
  beforeAll(async () => {
    await initTestI18n('en');
  });

  it('selects the first console, and choosing a console clears the search and the game', { timeout: 15_000 }, async () => {
    const fetch = stubFetch({
      '/api/site': () => json({ contacts: {}, donation: {} }),
      '/romserv/consoles': () => json(consoles),
      '/romserv/consoles/nes/games': ({ url }) =>
        json(games(new URL(url, 'http://x').searchParams.get('search') ? ['Coin Catcher'] : ['Coin Catcher', 'Tanks'], 'nes')),
      '/romserv/consoles/snes/games': () => json(games(['Colour Test'], 'snes')),
    });
    renderPage();
    const nav = await screen.findByRole('navigation', { name: 'Consoles' });
    await waitFor(() => expect(within(nav).getByRole('button', { name: /^NES/ }).getAttribute('aria-pressed')).toBe('true'));
    expect(await screen.findByRole('button', { name: 'Play Tanks' })).toBeTruthy();

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search games' }), { target: { value: 'coin' } });
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Play Tanks' })).toBeNull());
    const searched = fetch.mock.calls.map(([u]) => String(u)).find((u) => u.includes('search=coin'));
    expect(searched).toContain('page=1');
    expect(searched).toContain('limit=100');

    fireEvent.click(screen.getByRole('button', { name: 'Play Coin Catcher' }));
    expect((await screen.findByTitle('Game: Coin Catcher')).getAttribute('sandbox')).toBe('allow-scripts');

    fireEvent.click(within(nav).getByRole('button', { name: /^SNES/ }));
    await waitFor(() => expect(screen.queryByTitle('Game: Coin Catcher')).toBeNull());
    expect((screen.getByRole('searchbox', { name: 'Search games' }) as HTMLInputElement).value).toBe('');
    expect(await screen.findByRole('button', { name: 'Play Colour Test' })).toBeTruthy();
  });

  it('a guest marks a favourite: it appears in the favourites row and stays in this browser', async () => {
    localStorage.clear();
    stubFetch({
      '/api/site': () => json({ contacts: {}, donation: {} }),
      '/romserv/consoles': () => json(consoles),
      '/romserv/consoles/nes/games': () => json(games(['Coin Catcher', 'Tanks'], 'nes')),
    });
    const first = renderPage();
    const star = await screen.findByRole('button', { name: 'Favourite: Tanks' });
    expect(star.getAttribute('aria-pressed')).toBe('false');
    expect(screen.queryByRole('region', { name: 'Favourites' })).toBeNull();
    fireEvent.click(star);
    const row = await screen.findByRole('region', { name: 'Favourites' });
    expect(within(row).getByRole('button', { name: 'Tanks' })).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Favourite: Tanks' }).getAttribute('aria-pressed')).toBe('true'));
    first.unmount();
    renderPage();
    expect(within(await screen.findByRole('region', { name: 'Favourites' })).getByRole('button', { name: 'Tanks' })).toBeTruthy();
  });

  it('shows the main column only once the library has arrived, and keeps it while another console loads', async () => {
    let answerGames: (r: Response) => void = () => undefined;
    let answerSnes: (r: Response) => void = () => undefined;
    stubFetch({
      '/api/site': () => json({ contacts: {}, donation: {} }),
      '/romserv/consoles': () => json(consoles),
      '/romserv/consoles/nes/games': () => new Promise<Response>((resolve) => (answerGames = resolve)),
      '/romserv/consoles/snes/games': () => new Promise<Response>((resolve) => (answerSnes = resolve)),
    });
    renderPage();
    const nav = await screen.findByRole('navigation', { name: 'Consoles' });
    // the library is still growing above it (on a phone): the main column is not there to be pushed down
    expect(screen.queryByText('Choose a game in the list to start playing.')).toBeNull();
    answerGames(json(games(['Coin Catcher'], 'nes')));
    expect(await screen.findByText('Choose a game in the list to start playing.')).toBeTruthy();
    fireEvent.click(within(nav).getByRole('button', { name: /^SNES/ }));
    await waitFor(() => expect(within(nav).getByRole('button', { name: /^SNES/ }).getAttribute('aria-pressed')).toBe('true'));
    expect(screen.getByText('Choose a game in the list to start playing.')).toBeTruthy();
    answerSnes(json(games(['Colour Test'], 'snes')));
    expect(await screen.findByRole('button', { name: 'Play Colour Test' })).toBeTruthy();
  });

  it('shows the connection error screen when the server cannot be reached', async () => {
    stubFetch({});
    const { vi } = await import('vitest');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Ошибка подключения к серверу' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });

  it('shows the console and games fallbacks', async () => {
    stubFetch({ '/romserv/consoles': () => json({}, 500) });
    const first = renderPage();
    expect(await screen.findByText('Ошибка загрузки консолей')).toBeTruthy();
    first.unmount();
    stubFetch({ '/romserv/consoles': () => json(consoles), '/romserv/consoles/nes/games': () => json({}, 500) });
    renderPage();
    expect(await screen.findByText('Ошибка загрузки игр')).toBeTruthy();
    await act(async () => undefined);
  });
});
