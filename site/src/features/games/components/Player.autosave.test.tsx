import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { initTestI18n, renderWithShell } from '../../../test/utils';
import { ACCOUNT_AUTOSAVE_MS } from '../accountStates';
import type { Game } from '../api';
import { CHANNEL } from '../emulator/protocol';
import { Player } from './Player';

// The periodic account autosave: while a signed-in player plays, the newest autosave the frame
// sent goes to the server every minute, only when the frame sent a new one since (a paused game
// sends none), so a tab closed hard loses at most a minute. The frame is stood in for by
// messages from the iframe's window, as the real one posts them.

const game: Game = { id: 7, name: 'Catcher', path: '/nes/Catcher.nes', console: 'nes', hasImage: false, imagePath: '' };

let fetchMock: ReturnType<typeof vi.fn>;

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** The PUTs of the account autosave, by the size of the state they carried. */
const autosaves = () =>
  fetchMock.mock.calls
    .filter(([url, init]) => url === '/api/games/7/states/auto' && (init as RequestInit | undefined)?.method === 'PUT')
    .map(([, init]) => ((init as RequestInit).body as Blob).size);

async function setup(signedIn: boolean) {
  if (signedIn) localStorage.setItem('token', 'tok');
  renderWithShell(<Player game={game} core="fceumm" onClose={() => undefined} />);
  const frame = screen.getByTitle(/Catcher/) as HTMLIFrameElement;
  if (signedIn) await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => url === '/api/games/7/states')).toBe(true));
  /** The frame's autosave of n bytes. */
  const autosave = (n: number) =>
    act(() => {
      window.dispatchEvent(
        new MessageEvent('message', {
          data: { channel: CHANNEL, type: 'save-state', slot: 'auto', data: new Uint8Array(n) },
          source: frame.contentWindow,
        }),
      );
    });
  return { autosave };
}

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

beforeAll(async () => {
  await initTestI18n('en');
});
beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  fetchMock = vi.fn(async (url: string) => {
    if (url === '/api/auth/profile') return json({ id: 5, email: 'p@example.com', name: 'P', role: 'user' });
    if (url === '/api/games/7/states') return json([]);
    if (url.startsWith('/api/games/controls/')) return json({ keys: null, gamepad: null });
    return new Response(null, { status: 204 });
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('Player: periodic account autosave', () => {
  it('sends the newest autosave every minute, only when the game ran since the last', async () => {
    const { autosave } = await setup(true);
    expect(ACCOUNT_AUTOSAVE_MS).toBe(60_000);

    // Nothing from the frame yet: nothing to send.
    await advance(ACCOUNT_AUTOSAVE_MS);
    expect(autosaves()).toEqual([]);

    // A large state (over the keepalive limit) arrives: it goes at the next minute, not before.
    autosave(300_000);
    autosave(300_001);
    await advance(ACCOUNT_AUTOSAVE_MS / 2);
    expect(autosaves()).toEqual([]);
    await advance(ACCOUNT_AUTOSAVE_MS / 2);
    expect(autosaves()).toEqual([300_001]);

    // Paused: the frame sends nothing, so nothing is sent again.
    await advance(3 * ACCOUNT_AUTOSAVE_MS);
    expect(autosaves()).toEqual([300_001]);

    // Running again.
    autosave(300_002);
    await advance(ACCOUNT_AUTOSAVE_MS);
    expect(autosaves()).toEqual([300_001, 300_002]);
  });

  it('a guest’s autosave is not sent to the server', async () => {
    const { autosave } = await setup(false);
    autosave(1000);
    await advance(2 * ACCOUNT_AUTOSAVE_MS);
    expect(autosaves()).toEqual([]);
  });
});
