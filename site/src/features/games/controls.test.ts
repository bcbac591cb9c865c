import { afterEach, describe, expect, it } from 'vitest';
import { json, stubFetch } from '../../test/utils';
import { fetchControls, putControls } from './api';
import { DEFAULT_CONTROLS, effective, loadLocalControls, saveLocalControls } from './controls';
import { BUTTON, GAMEPAD_BUTTONS, KEYBOARD } from './emulator/input';

const answer = (keys: unknown, gamepad: unknown) => json({ keys, gamepad, updatedAt: keys || gamepad ? '2026-11-23T11:00:00Z' : null });

describe('controls', () => {
  afterEach(() => localStorage.clear());

  it('reads a signed-in player’s mapping from the server; nulls and anything unknown mean the defaults', async () => {
    stubFetch({
      'GET /api/games/controls/nes': () => answer({ KeyK: 8 }, null),
      'GET /api/games/controls/snes': () => answer(null, { 2: 8 }),
      'GET /api/games/controls/gba': () => answer({ KeyK: 99 }, { x: 1 }),
    });
    expect(await fetchControls('nes')).toEqual({ keys: { KeyK: BUTTON.A }, pad: null });
    expect(await fetchControls('snes')).toEqual({ keys: null, pad: { 2: BUTTON.A } });
    expect(await fetchControls('gba')).toEqual(DEFAULT_CONTROLS);
    expect(effective(DEFAULT_CONTROLS)).toEqual({ keys: KEYBOARD, pad: GAMEPAD_BUTTONS });
  });

  it('saves both maps with PUT, and resetting is a DELETE', async () => {
    const fetch = stubFetch({
      'PUT /api/games/controls/nes': ({ body }) => {
        const b = body as { keys: unknown; gamepad: unknown };
        return answer(b.keys, b.gamepad);
      },
      'DELETE /api/games/controls/nes': () => new Response(null, { status: 204 }),
    });
    expect(await putControls('nes', { keys: { KeyK: BUTTON.A }, pad: { 3: BUTTON.B } })).toEqual({
      keys: { KeyK: BUTTON.A },
      pad: { 3: BUTTON.B },
    });
    const [, init] = fetch.mock.calls[0];
    expect(init?.method).toBe('PUT');
    expect(JSON.parse(String(init?.body))).toEqual({ keys: { KeyK: 8 }, gamepad: { 3: 0 } });
    expect(await putControls('nes', null)).toEqual(DEFAULT_CONTROLS);
    expect(fetch.mock.calls[1][1]?.method).toBe('DELETE');
  });

  it('keeps a guest’s mapping in this browser per console; defaults leave nothing stored', () => {
    saveLocalControls('nes', { keys: { KeyK: BUTTON.A }, pad: { 2: BUTTON.A } });
    expect(loadLocalControls('nes')).toEqual({ keys: { KeyK: BUTTON.A }, pad: { 2: BUTTON.A } });
    expect(loadLocalControls('snes')).toEqual(DEFAULT_CONTROLS);
    localStorage.setItem('devhub-games-pad:gba', '{"2":"A"}');
    expect(loadLocalControls('gba')).toEqual(DEFAULT_CONTROLS);
    saveLocalControls('nes', DEFAULT_CONTROLS);
    expect(localStorage.length).toBe(1);
    expect(loadLocalControls('nes')).toEqual(DEFAULT_CONTROLS);
  });
});
