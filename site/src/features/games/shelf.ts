// Favourites and recently played games. A signed-in player's live on the server
// (GET /api/games/me, PUT/DELETE /api/games/:id/favourite, POST /api/games/:id/played); a
// guest's in this browser's localStorage, with the same shape, so the rows look the same.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '../../lib/api';
import { useAuth } from '../../lib/auth';
import type { Game } from './api';
import { gameKeys } from './keys';

export interface ShelfGame extends Game {
  /** When it became a favourite, or was last started (ISO time). */
  at: string;
}

export interface Shelf {
  favourites: ShelfGame[];
  recent: ShelfGame[];
}

const STORAGE_KEY = 'devhub-games-shelf';
const MAX_RECENT = 20;

export function readLocalShelf(): Shelf {
  try {
    const v = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as Partial<Shelf> | null;
    return { favourites: Array.isArray(v?.favourites) ? v.favourites : [], recent: Array.isArray(v?.recent) ? v.recent : [] };
  } catch {
    return { favourites: [], recent: [] };
  }
}

function writeLocalShelf(s: Shelf): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(s));
  } catch {
    /* storage unavailable: the shelf lasts this page only */
  }
}

const strip = (g: Game): Game => ({
  id: g.id,
  name: g.name,
  path: g.path,
  console: g.console,
  hasImage: g.hasImage,
  imagePath: g.imagePath,
});

/** A guest started a game: it goes to the front of the browser's recent list. */
export function rememberPlayed(game: Game, now = new Date()): void {
  const s = readLocalShelf();
  s.recent = [{ ...strip(game), at: now.toISOString() }, ...s.recent.filter((g) => g.id !== game.id)].slice(0, MAX_RECENT);
  writeLocalShelf(s);
}

export function setLocalFavourite(game: Game, on: boolean, now = new Date()): void {
  const s = readLocalShelf();
  s.favourites = s.favourites.filter((g) => g.id !== game.id);
  if (on) s.favourites.unshift({ ...strip(game), at: now.toISOString() });
  writeLocalShelf(s);
}


/** The shelf of whoever is here: the server's for a signed-in player, the browser's for a guest. */
export function useShelf() {
  const { user } = useAuth();
  const signedIn = !!user;
  return useQuery({
    queryKey: gameKeys.shelf(signedIn),
    queryFn: () => (signedIn ? request<Shelf>('/api/games/me') : Promise.resolve(readLocalShelf())),
  });
}

export function useToggleFavourite() {
  const { user } = useAuth();
  const signedIn = !!user;
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ game, on }: { game: Game; on: boolean }) => {
      if (signedIn) await request(`/api/games/${game.id}/favourite`, { method: on ? 'PUT' : 'DELETE' });
      else setLocalFavourite(game, on);
    },
    onSettled: () => qc.invalidateQueries({ queryKey: gameKeys.shelfAll }),
  });
}

/** Sorts games by name (locale-aware) or by most recent first. */
export function sortShelf(list: ShelfGame[], by: 'name' | 'recent', lang: string): ShelfGame[] {
  const out = [...list];
  if (by === 'name') out.sort((a, b) => a.name.localeCompare(b.name, lang, { sensitivity: 'base' }));
  else out.sort((a, b) => b.at.localeCompare(a.at));
  return out;
}
