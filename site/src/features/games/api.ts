// The games' reads and writes through the shared API client: the ROM service (/romserv
// "Emulator service", one call per function; its answers use their own envelope {success, data,
// meta}), an admin's ROM uploads and removals, and the player's controls per console.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, request } from '../../lib/api';
import type { Schema } from '../../lib/apiTypes';
import { useAuth } from '../../lib/auth';
import { DEFAULT_CONTROLS, loadLocalControls, saveLocalControls, type Controls } from './controls';
import { validKeymap, validPadmap } from './emulator/input';
import { gameKeys } from './keys';
import { removeRom, uploadCover, uploadRom, type RomUploadControl } from './romUpload';

export const ROMSERV = '/romserv';
/** Games per page. */
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

/** Game images load from the service base plus imagePath. */
export function imageUrl(game: Game): string | null {
  return game.hasImage && game.imagePath ? ROMSERV + game.imagePath.split('/').map(encodeURIComponent).join('/') : null;
}

/** The ROM loads from the service base plus the game path. */
export function romUrl(game: Game): string {
  return ROMSERV + game.path.split('/').map(encodeURIComponent).join('/');
}

/** The player page with query core and gameUrl. */
export function playerUrl(core: string, game: Game, lang: string): string {
  const q = new URLSearchParams({ core, gameUrl: romUrl(game), lang });
  return `/emulator.html?${q.toString()}`;
}


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

/** One ROM an admin adds: the console ('' = by the extension), a cover, and the upload's controls. */
export interface AddRomInput extends RomUploadControl {
  rom: File;
  cover?: File;
  consoleId: string;
}

/**
 * An admin adds a ROM (resumable, through the tus endpoint), then its cover when one came with it;
 * resolves with the new game's id. The lists and counts load again.
 */
export function useAddRom() {
  const reload = useInvalidateGames();
  const { user } = useAuth();
  return useMutation({
    mutationFn: async ({ rom, cover, consoleId, ...ctl }: AddRomInput) => {
      if (!user) throw new Error('sign in to add games');
      const gameId = await uploadRom(rom, consoleId, user.id, ctl);
      if (cover) await uploadCover(gameId, cover);
      return gameId;
    },
    onSettled: reload,
  });
}

/**
 * An admin removes a game. The lists and counts load again whatever the answer (another admin
 * may have removed it first), and so do the shelves, which drop games that are gone.
 */
export function useRemoveRom() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (gameId: number) => removeRom(gameId),
    onSettled: () =>
      Promise.all([qc.invalidateQueries({ queryKey: gameKeys.all }), qc.invalidateQueries({ queryKey: gameKeys.shelfAll })]),
  });
}

// --- Controls per console: the server's for a signed-in player, this browser's for a guest -------

const controlsPath = (consoleId: string) => `/api/games/controls/${encodeURIComponent(consoleId)}`;

/** The server's mapping as the player uses it (anything it does not recognise: the defaults). */
function fromServer(m: Schema<'ControlsMapping'>): Controls {
  return { keys: validKeymap(m.keys) ?? null, pad: validPadmap(m.gamepad) ?? null };
}

export async function fetchControls(consoleId: string, signal?: AbortSignal): Promise<Controls> {
  return fromServer(await request<Schema<'ControlsMapping'>>(controlsPath(consoleId), { signal }));
}

/** Saves a console's controls on the server (null: back to the defaults) and answers them as stored. */
export async function putControls(consoleId: string, c: Controls | null): Promise<Controls> {
  if (!c || (!c.keys && !c.pad)) {
    await request(controlsPath(consoleId), { method: 'DELETE' });
    return DEFAULT_CONTROLS;
  }
  return fromServer(
    await request<Schema<'ControlsMapping'>>(controlsPath(consoleId), { method: 'PUT', body: { keys: c.keys, gamepad: c.pad } }),
  );
}

/** The controls of whoever is here for a console. */
export function useControls(consoleId: string) {
  const { user } = useAuth();
  const signedIn = !!user;
  return useQuery({
    queryKey: gameKeys.controls(signedIn, consoleId),
    queryFn: ({ signal }) => (signedIn ? fetchControls(consoleId, signal) : Promise.resolve(loadLocalControls(consoleId))),
    staleTime: Infinity,
  });
}

/**
 * Changes a console's controls (null resets them). The new mapping is used at once; when the
 * server refuses it, the one before comes back. Changes go to the server one after another (one
 * mutation scope per console): each PUT carries the whole mapping, so two in flight at once could
 * arrive, and be answered, in the other order and leave the older mapping saved and shown.
 */
export function useSaveControls(consoleId: string) {
  const { user } = useAuth();
  const signedIn = !!user;
  const qc = useQueryClient();
  const key = gameKeys.controls(signedIn, consoleId);
  return useMutation({
    mutationKey: key,
    scope: { id: `games-controls:${consoleId}` },
    mutationFn: async (c: Controls | null) => {
      if (signedIn) return putControls(consoleId, c);
      saveLocalControls(consoleId, c ?? DEFAULT_CONTROLS);
      return c ?? DEFAULT_CONTROLS;
    },
    onMutate: async (c) => {
      await qc.cancelQueries({ queryKey: key });
      const before = qc.getQueryData<Controls>(key);
      qc.setQueryData<Controls>(key, c ?? DEFAULT_CONTROLS);
      return { before };
    },
    onError: (_err, _c, ctx) => qc.setQueryData(key, ctx?.before ?? DEFAULT_CONTROLS),
    // A change still waiting behind this one is already shown: the answer to this one would take
    // it off the screen (and out of the running game) until its own answer comes.
    onSuccess: (saved) => {
      if (qc.isMutating({ mutationKey: key }) <= 1) qc.setQueryData(key, saved);
    },
  });
}
