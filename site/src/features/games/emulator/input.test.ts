import { describe, expect, it, vi } from 'vitest';
import { BUTTON, bindPad, gamepadButtons, InputState, KEYBOARD, newlyPressed, validPadmap } from './input';
import { validParams } from './protocol';

describe('InputState', () => {
  it('holds a button while any source holds it and reports only changes', () => {
    const send = vi.fn();
    const s = new InputState(send);
    s.set('keyboard', BUTTON.A, true);
    s.set('touch', BUTTON.A, true);
    s.set('keyboard', BUTTON.A, false);
    expect(send.mock.calls).toEqual([[BUTTON.A, true]]);
    expect(s.isDown(BUTTON.A)).toBe(true);
    s.set('touch', BUTTON.A, false);
    expect(send.mock.calls).toEqual([
      [BUTTON.A, true],
      [BUTTON.A, false],
    ]);
  });

  it('releases everything on blur and follows a gamepad snapshot', () => {
    const send = vi.fn();
    const s = new InputState(send);
    s.setAll('pad0', new Set([BUTTON.UP, BUTTON.B]));
    s.setAll('pad0', new Set([BUTTON.B]));
    s.releaseAll();
    expect(send.mock.calls).toEqual([
      [BUTTON.B, true],
      [BUTTON.UP, true],
      [BUTTON.UP, false],
      [BUTTON.B, false],
    ]);
  });
});

describe('mappings', () => {
  it('maps the documented keys', () => {
    expect(KEYBOARD.KeyX).toBe(BUTTON.A);
    expect(KEYBOARD.KeyZ).toBe(BUTTON.B);
    expect(KEYBOARD.Enter).toBe(BUTTON.START);
    expect(KEYBOARD.ArrowRight).toBe(BUTTON.RIGHT);
  });

  it('reads gamepad buttons and the left stick', () => {
    const pressed = (ids: number[]) => Array.from({ length: 16 }, (_, i) => ({ pressed: ids.includes(i) }));
    expect([...gamepadButtons({ buttons: pressed([1, 9]), axes: [0, 0] })].sort()).toEqual([BUTTON.START, BUTTON.A].sort());
    expect([...gamepadButtons({ buttons: pressed([]), axes: [-0.9, 0.7] })].sort()).toEqual([BUTTON.DOWN, BUTTON.LEFT].sort());
    expect(gamepadButtons({ buttons: pressed([]), axes: [0.3, -0.2] }).size).toBe(0);
  });
});

describe('validParams', () => {
  it.each([
    ['fceumm', '/romserv/nes/Coin_Catcher.nes', true],
    ['genesis_plus_gx', '/romserv/megadrive/%D0%A2%D0%B5%D1%81%D1%82.md', true],
    ['fceumm', 'https://example.com/rom.nes', false],
    ['fceumm', '//example.com/rom.nes', false],
    ['fceumm', '/romserv//example.com/rom.nes', false],
    ['fceumm', '/romserv/../api/files', false],
    ['fceumm', '/romserv/%2e%2e/x', false],
    ['fceumm', '/api/files/1/download', false],
    ['../x', '/romserv/nes/a.nes', false],
    ['', '/romserv/nes/a.nes', false],
  ])('core %s, game %s → %s', (core, url, ok) => {
    expect(validParams(core, url)).toBe(ok);
  });
});

describe('touchFaceButtons', () => {
  it('leaves out X and Y for two-button consoles', async () => {
    const { touchFaceButtons } = await import('./input');
    expect(touchFaceButtons('fceumm')).toEqual(['b', 'a']);
    expect(touchFaceButtons('gambatte')).toEqual(['b', 'a']);
    expect(touchFaceButtons('snes9x')).toEqual(['y', 'x', 'b', 'a']);
  });
});

describe('key mapping', () => {
  it('accepts only codes to known buttons', async () => {
    const { validKeymap } = await import('./input');
    expect(validKeymap({ KeyK: 8 })).toEqual({ KeyK: 8 });
    expect(validKeymap({ KeyK: 99 })).toBeUndefined();
    expect(validKeymap({ 'Key K<': 8 })).toBeUndefined();
    expect(validKeymap([8])).toBeUndefined();
    expect(validKeymap(null)).toBeUndefined();
  });

  it('binding a key moves it and drops the button’s old key', async () => {
    const { bindKey, BUTTON } = await import('./input');
    const map = { KeyX: BUTTON.A, KeyZ: BUTTON.B, ArrowUp: BUTTON.UP };
    expect(bindKey(map, BUTTON.A, 'KeyK')).toEqual({ KeyZ: BUTTON.B, ArrowUp: BUTTON.UP, KeyK: BUTTON.A });
    expect(bindKey(map, BUTTON.A, 'KeyZ')).toEqual({ ArrowUp: BUTTON.UP, KeyZ: BUTTON.A });
  });
});

describe('gamepad mappings', () => {
  const pad = (pressed: number[], index = 0) => ({
    index,
    axes: [0, 0],
    buttons: Array.from({ length: 17 }, (_, i) => ({ pressed: pressed.includes(i) })),
  });

  it('reads a pad through the player’s own mapping', () => {
    expect([...gamepadButtons(pad([2]))]).toEqual([BUTTON.Y]);
    expect([...gamepadButtons(pad([2]), { 2: BUTTON.A })]).toEqual([BUTTON.A]);
    expect([...gamepadButtons(pad([1]), { 2: BUTTON.A })]).toEqual([]);
  });

  it.each([
    [{ 0: 8, 15: 7 }, { 0: 8, 15: 7 }],
    [{ '2': 8 }, { 2: 8 }],
    [{ 32: 8 }, undefined],
    [{ '01': 8 }, undefined],
    [{ 1: 12 }, undefined],
    [{ 1: '8' }, undefined],
    [[8], undefined],
    [null, undefined],
  ])('validPadmap(%j) → %j', (input, want) => {
    expect(validPadmap(input)).toEqual(want);
  });

  it('binds one pad button per joypad button', () => {
    expect(bindPad({ 0: BUTTON.B, 1: BUTTON.A, 2: BUTTON.Y }, BUTTON.A, 2)).toEqual({ 0: BUTTON.B, 2: BUTTON.A });
  });

  it('finds the button pressed since the wait began', () => {
    const seen = new Map<number, Set<number>>();
    expect(newlyPressed([pad([4])], seen, true)).toBeUndefined();
    expect(newlyPressed([pad([4])], seen)).toBeUndefined();
    expect(newlyPressed([pad([4, 7])], seen)).toBe(7);
    expect(newlyPressed([pad([4, 7])], seen)).toBeUndefined();
    expect(newlyPressed([pad([4, 7]), pad([3], 1)], seen)).toBe(3);
  });
});
