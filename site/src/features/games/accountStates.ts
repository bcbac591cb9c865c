// Save states kept on the server for signed-in players (/api/games/:gameId/states): slots 1–5 and
// the autosave, each with the core that made it. The bytes travel raw; the core goes in
// X-Emulator-Core and comes back with the state, and loading asks with ?core= so the server
// refuses a state of another core (409 wrong_core) before anything reaches the emulator.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, request } from '../../lib/api';
import { gameKeys } from './keys';

export const ACCOUNT_SLOTS = ['1', '2', '3', '4', '5'] as const;

export interface AccountState {
  slot: string;
  size: number;
  updatedAt: string;
  hasScreenshot: boolean;
  core: string;
}

const base = (gameId: number) => `/api/games/${gameId}/states`;


export function listAccountStates(gameId: number, signal?: AbortSignal): Promise<AccountState[]> {
  return request<AccountState[]>(base(gameId), { signal });
}

/** The list query's options: the player's slot list reads it, and so does a game's start (fresh). */
export const accountStatesQuery = (gameId: number) => ({
  queryKey: gameKeys.states(gameId),
  queryFn: ({ signal }: { signal: AbortSignal }) => listAccountStates(gameId, signal),
});

/** The signed-in player's slots of a game (nothing is asked for a guest). */
export function useAccountStates(gameId: number, signedIn: boolean) {
  return useQuery({ ...accountStatesQuery(gameId), enabled: signedIn });
}

/**
 * Saves a state (and its thumbnail) into an account slot; the slot list loads again. Only the list:
 * the pictures are keyed by their state's time, so the new one is asked for by its new key and the
 * other slots' pictures, unchanged, are not fetched again.
 */
export function useSaveAccountState(gameId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { slot: string; core: string; data: Uint8Array; shot?: Uint8Array }) =>
      saveAccountState(gameId, v.slot, v.core, v.data, v.shot),
    onSuccess: () => qc.invalidateQueries({ queryKey: gameKeys.states(gameId), exact: true }),
  });
}

/** Records that a signed-in player started a game; the "continue playing" row loads again. */
export function useMarkPlayed() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (gameId: number) => markPlayed(gameId),
    onSuccess: () => qc.invalidateQueries({ queryKey: gameKeys.shelfAll }),
  });
}

/**
 * Saves a state into a slot, then its thumbnail when there is one. The server ties a screenshot
 * to the state it was sent after (a new state drops the old picture), so the two go in that
 * order; a thumbnail that fails leaves the saved state as it is.
 */
export async function saveAccountState(
  gameId: number,
  slot: string,
  core: string,
  data: Uint8Array,
  shot?: Uint8Array,
): Promise<void> {
  await request(`${base(gameId)}/${slot}`, {
    method: 'PUT',
    body: new Blob([data as BlobPart], { type: 'application/octet-stream' }),
    headers: { 'Content-Type': 'application/octet-stream', 'X-Emulator-Core': core },
  });
  if (shot) await putStateScreenshot(gameId, slot, shot).catch(() => undefined);
}

/** Attaches a PNG thumbnail to the slot's current state. */
export function putStateScreenshot(gameId: number, slot: string, png: Uint8Array, keepalive = false): Promise<unknown> {
  return request(`${base(gameId)}/${slot}/screenshot`, {
    method: 'PUT',
    body: new Blob([png as BlobPart], { type: 'image/png' }),
    keepalive,
    headers: { 'Content-Type': 'image/png' },
  });
}

export function fetchStateScreenshot(gameId: number, slot: string, signal?: AbortSignal): Promise<Blob> {
  return request<Blob>(`${base(gameId)}/${slot}/screenshot`, { responseType: 'blob', signal });
}

/**
 * A saved slot's thumbnail, when the list says it has one; keyed by the state's time, so a new
 * save loads the new picture and an unchanged one is not fetched again.
 */
export function useStateScreenshot(gameId: number, state: AccountState | undefined) {
  return useQuery({
    queryKey: [...gameKeys.states(gameId), 'screenshot', state?.slot ?? '', state?.updatedAt ?? ''] as const,
    queryFn: ({ signal }) => fetchStateScreenshot(gameId, state!.slot, signal),
    enabled: !!state?.hasScreenshot,
    staleTime: Infinity,
    retry: false,
  });
}

/** Why a state was not loaded: another core made it, or it is damaged. */
export class StateRefused extends Error {
  constructor(
    readonly reason: 'wrong_core' | 'corrupt',
    readonly core: string,
  ) {
    super(reason);
  }
}

/**
 * A slot's bytes, asked for when the player loads it. Not a query: the bytes go straight into the
 * emulator frame and are never shown or reused, so there is nothing to cache, and the answer must
 * be the slot as it is at that moment.
 */
export async function loadAccountState(gameId: number, slot: string, core: string): Promise<Uint8Array> {
  try {
    const blob = await request<Blob>(`${base(gameId)}/${slot}`, { query: { core }, responseType: 'blob' });
    return new Uint8Array(await blob.arrayBuffer());
  } catch (err) {
    if (err instanceof ApiError && err.status === 409) {
      const data = (err.data ?? {}) as Record<string, { code?: string; message?: string } | undefined>;
      if (data.core?.code === 'wrong_core') throw new StateRefused('wrong_core', data.core.message ?? '');
      throw new StateRefused('corrupt', '');
    }
    throw err;
  }
}

/**
 * While a signed-in player plays, the newest autosave also goes to the account this often (only
 * when the frame sent a new one since: it sends none while the game is paused). Leaving the page
 * sends it too, but a tab closed hard only keeps what fits a keepalive request (under 60 KB); with
 * this, a hard close loses at most this much play.
 */
export const ACCOUNT_AUTOSAVE_MS = 60_000;

/**
 * Keeps the autosave when the player is being left: a keepalive request outlives the page for
 * small states (browsers allow 64 KiB in flight); a larger one is a normal request, which
 * completes when the page stays open (closing the game, going to another page of the site).
 * Fire-and-forget on purpose, not a mutation: it runs from pagehide and effect clean-ups, when
 * the component (and any mutation observer) is already going away, and nobody waits for it.
 */
export function keepAutosave(gameId: number, core: string, data: Uint8Array, shot?: Uint8Array): Promise<unknown> {
  const keepalive = data.byteLength < 60_000;
  return request(`${base(gameId)}/auto`, {
    method: 'PUT',
    body: new Blob([data as BlobPart], { type: 'application/octet-stream' }),
    keepalive,
    headers: { 'Content-Type': 'application/octet-stream', 'X-Emulator-Core': core },
  })
    // The thumbnail follows the state it belongs to; a page already gone sends none.
    .then(() => (shot ? putStateScreenshot(gameId, 'auto', shot, keepalive && shot.byteLength < 60_000) : undefined))
    .catch(() => undefined);
}

/** Records that a signed-in player started a game (the "continue playing" row). */
export function markPlayed(gameId: number): Promise<unknown> {
  return request(`/api/games/${gameId}/played`, { method: 'POST' });
}
