// The ROM service (/romserv, spec §7 "Emulator service"): one call per function, through the
// shared API client. Its answers use their own envelope {success, data, meta}.
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';

export const ROMSERV = '/romserv';
/** Games per page (spec §9). */
export const PAGE_SIZE = 100;
/** The game search waits this long after the last keystroke. */
export const SEARCH_DEBOUNCE_MS = 300;

export interface Console {
  id: string;
  name: string;
  shortName: string;
  core: string;
  stats: { games: number };
}

export interface Game {
  id: number;
  name: string;
  path: string;
  console: string;
  hasImage: boolean;
  imagePath: string;
}

interface Envelope<T, M> {
  success: boolean;
  data: T;
  meta: M;
}

export interface GamesPage {
  games: Game[];
  total: number;
  page: number;
  limit: number;
}

export async function fetchConsoles(signal?: AbortSignal): Promise<Console[]> {
  const res = await api.get<Envelope<Console[], { total: number }>>(`${ROMSERV}/consoles`, { auth: false, signal });
  if (!res?.success || !Array.isArray(res.data)) throw new Error('Unexpected answer from the ROM service');
  return res.data;
}

export async function fetchGames(
  consoleId: string,
  opts: { page: number; search: string; limit?: number },
  signal?: AbortSignal,
): Promise<GamesPage> {
  const res = await api.get<Envelope<Game[], { total: number; page: number; limit: number }>>(
    `${ROMSERV}/consoles/${encodeURIComponent(consoleId)}/games`,
    {
      auth: false,
      signal,
      query: { page: opts.page, limit: opts.limit ?? PAGE_SIZE, search: opts.search.trim() || undefined },
    },
  );
  if (!res?.success || !Array.isArray(res.data)) throw new Error('Unexpected answer from the ROM service');
  return { games: res.data, total: res.meta.total, page: res.meta.page, limit: res.meta.limit };
}

/** Game images load from the service base plus imagePath (spec §7). */
export function imageUrl(game: Game): string | null {
  return game.hasImage && game.imagePath ? ROMSERV + game.imagePath.split('/').map(encodeURIComponent).join('/') : null;
}

/** The ROM loads from the service base plus the game path (spec §7). */
export function romUrl(game: Game): string {
  return ROMSERV + game.path.split('/').map(encodeURIComponent).join('/');
}

/** The player page with query core and gameUrl (spec §7). */
export function playerUrl(core: string, game: Game, lang: string): string {
  const q = new URLSearchParams({ core, gameUrl: romUrl(game), lang });
  return `/emulator.html?${q.toString()}`;
}

export const gameKeys = {
  all: ['romserv'] as const,
  consoles: ['romserv', 'consoles'] as const,
  games: (consoleId: string, page: number, search: string) => ['romserv', 'games', consoleId, page, search] as const,
};

/** The consoles. Not retried: a failure shows the page's own Retry at once. */
export function useConsoles() {
  return useQuery({ queryKey: gameKeys.consoles, queryFn: ({ signal }) => fetchConsoles(signal), retry: false });
}

/** A page of a console's games (none asked for before a console is chosen); retried once. */
export function useGames(consoleId: string | null, page: number, search: string) {
  return useQuery({
    queryKey: gameKeys.games(consoleId ?? '', page, search),
    queryFn: ({ signal }) => fetchGames(consoleId!, { page, search }, signal),
    enabled: consoleId !== null,
    placeholderData: keepPreviousData,
    retry: 1,
  });
}

/** After an admin adds or removes games: the consoles (their counts) and the lists load again. */
export function useInvalidateGames() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: gameKeys.all });
}
