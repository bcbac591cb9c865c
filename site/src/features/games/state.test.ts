import { describe, expect, it } from 'vitest';
import type { Console, Game } from './api';
import { gamesReducer, initialGamesState, type GamesState } from './state';

const con = (id: string): Console => ({ id, name: id.toUpperCase(), shortName: id.toUpperCase(), core: 'fceumm', stats: { games: 1 } });
const game: Game = { id: 7, name: 'Coin Catcher', path: '/nes/Coin_Catcher.nes', console: 'nes', hasImage: false, imagePath: '' };

describe('gamesReducer', () => {
  it('selects the first console once the consoles load', () => {
    const s = gamesReducer(initialGamesState, { type: 'consolesLoaded', consoles: [con('nes'), con('snes')] });
    expect(s.consoleId).toBe('nes');
    expect(s.consolesStatus).toBe('ready');
  });

  it('keeps a still-present selection when consoles reload, else falls back to the first', () => {
    const base: GamesState = { ...initialGamesState, consoleId: 'snes' };
    expect(gamesReducer(base, { type: 'consolesLoaded', consoles: [con('nes'), con('snes')] }).consoleId).toBe('snes');
    expect(gamesReducer(base, { type: 'consolesLoaded', consoles: [con('gba')] }).consoleId).toBe('gba');
    expect(gamesReducer(base, { type: 'consolesLoaded', consoles: [] }).consoleId).toBeNull();
  });

  it('choosing a console clears the game, resets the page to 1 and clears the search', () => {
    const busy: GamesState = { ...initialGamesState, consoleId: 'nes', game, page: 4, search: 'coin' };
    const s = gamesReducer(busy, { type: 'selectConsole', id: 'snes' });
    expect(s).toMatchObject({ consoleId: 'snes', game: null, page: 1, search: '' });
    // Choosing the same console again resets too.
    expect(gamesReducer(busy, { type: 'selectConsole', id: 'nes' })).toMatchObject({ game: null, page: 1, search: '' });
  });

  it('a new search goes back to page 1; the same search changes nothing', () => {
    const s: GamesState = { ...initialGamesState, page: 3, search: 'a' };
    expect(gamesReducer(s, { type: 'setSearch', search: 'ab' })).toMatchObject({ search: 'ab', page: 1 });
    expect(gamesReducer(s, { type: 'setSearch', search: 'a' })).toBe(s);
  });

  it('pages are whole and at least 1', () => {
    expect(gamesReducer(initialGamesState, { type: 'setPage', page: 0 }).page).toBe(1);
    expect(gamesReducer(initialGamesState, { type: 'setPage', page: 2.7 }).page).toBe(2);
  });

  it('selects and closes a game; a failure is remembered as offline or error', () => {
    let s = gamesReducer(initialGamesState, { type: 'selectGame', game });
    expect(s.game).toBe(game);
    s = gamesReducer(s, { type: 'closeGame' });
    expect(s.game).toBeNull();
    expect(gamesReducer(initialGamesState, { type: 'consolesFailed', offline: true }).consolesStatus).toBe('offline');
    expect(gamesReducer(initialGamesState, { type: 'consolesFailed', offline: false }).consolesStatus).toBe('error');
  });
});
