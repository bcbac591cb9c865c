import { beforeEach, describe, expect, it } from 'vitest';
import type { Game } from './api';
import { readLocalShelf, rememberPlayed, setLocalFavourite, sortShelf } from './shelf';

const game = (id: number, name: string): Game => ({ id, name, path: `/nes/${name}.nes`, console: 'nes', hasImage: false, imagePath: '' });

describe('guest shelf in localStorage', () => {
  beforeEach(() => localStorage.clear());

  it('keeps recent games newest first, once each', () => {
    rememberPlayed(game(1, 'A'), new Date('2026-01-01T00:00:00Z'));
    rememberPlayed(game(2, 'B'), new Date('2026-01-02T00:00:00Z'));
    rememberPlayed(game(1, 'A'), new Date('2026-01-03T00:00:00Z'));
    expect(readLocalShelf().recent.map((g) => g.id)).toEqual([1, 2]);
  });

  it('adds and removes favourites', () => {
    setLocalFavourite(game(1, 'A'), true);
    setLocalFavourite(game(2, 'B'), true);
    setLocalFavourite(game(1, 'A'), false);
    expect(readLocalShelf().favourites.map((g) => g.id)).toEqual([2]);
  });

  it('survives garbage in storage', () => {
    localStorage.setItem('devhub-games-shelf', '{not json');
    expect(readLocalShelf()).toEqual({ favourites: [], recent: [] });
  });

  it('sorts by name or by recent', () => {
    const list = [
      { ...game(1, 'zelda'), at: '2026-01-03T00:00:00Z' },
      { ...game(2, 'Alpha'), at: '2026-01-01T00:00:00Z' },
      { ...game(3, 'mario'), at: '2026-01-02T00:00:00Z' },
    ];
    expect(sortShelf(list, 'name', 'en').map((g) => g.id)).toEqual([2, 3, 1]);
    expect(sortShelf(list, 'recent', 'en').map((g) => g.id)).toEqual([1, 3, 2]);
  });
});
