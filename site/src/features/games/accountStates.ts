// Save states kept on the server for signed-in players (/api/games/:gameId/states): slots 1–5 and
// the autosave, each with the core that made it. The bytes travel raw; the core goes in
// X-Emulator-Core and comes back with the state, and loading asks with ?core= so the server
// refuses a state of another core (409 wrong_core) before anything reaches the emulator.
import { ApiError, request } from '../../lib/api';

export const ACCOUNT_SLOTS = ['1', '2', '3', '4', '5'] as const;

export interface AccountState {
  slot: string;
  size: number;
  updatedAt: string;
  hasScreenshot: boolean;
  core: string;
}

const base = (gameId: number) => `/api/games/${gameId}/states`;

export const accountStatesKey = (gameId: number) => ['games', 'states', gameId] as const;

export function listAccountStates(gameId: number): Promise<AccountState[]> {
  return request<AccountState[]>(base(gameId));
}

export async function saveAccountState(gameId: number, slot: string, core: string, data: Uint8Array): Promise<void> {
  await request(`${base(gameId)}/${slot}`, {
    method: 'PUT',
    body: new Blob([data as BlobPart], { type: 'application/octet-stream' }),
    headers: { 'Content-Type': 'application/octet-stream', 'X-Emulator-Core': core },
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
 * Keeps the autosave when the player is being left: a keepalive request outlives the page for
 * small states (browsers allow 64 KiB in flight); a larger one is a normal request, which
 * completes when the page stays open (closing the game, going to another page of the site).
 */
export function keepAutosave(gameId: number, core: string, data: Uint8Array): Promise<unknown> {
  return request(`${base(gameId)}/auto`, {
    method: 'PUT',
    body: new Blob([data as BlobPart], { type: 'application/octet-stream' }),
    keepalive: data.byteLength < 60_000,
    headers: { 'Content-Type': 'application/octet-stream', 'X-Emulator-Core': core },
  }).catch(() => undefined);
}

/** Records that a signed-in player started a game (the "continue playing" row). */
export function markPlayed(gameId: number): Promise<unknown> {
  return request(`/api/games/${gameId}/played`, { method: 'POST' });
}
