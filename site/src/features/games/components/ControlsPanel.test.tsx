import { act, fireEvent, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initTestI18n, renderWithShell } from '../../../test/utils';
import { BUTTON, GAMEPAD_BUTTONS, KEYBOARD, type ButtonId } from '../emulator/input';
import { ControlsPanel, PAD_POLL_MS } from './ControlsPanel';

type Maps = { keys: Record<string, ButtonId>; pad: Record<number, ButtonId> };

/** The panel over its own state, as the player holds it; onChange/onReset are spied on. */
function Harness({ spy, reset }: { spy: (m: Partial<Maps>) => void; reset: () => void }) {
  const [maps, setMaps] = useState<Maps>({ keys: { ...KEYBOARD }, pad: { ...GAMEPAD_BUTTONS } });
  return (
    <ControlsPanel
      keys={maps.keys}
      pad={maps.pad}
      onChange={(next) => {
        spy(next);
        setMaps((m) => ({ ...m, ...next }));
      }}
      onReset={() => {
        reset();
        setMaps({ keys: { ...KEYBOARD }, pad: { ...GAMEPAD_BUTTONS } });
      }}
    />
  );
}

/** A pad as navigator.getGamepads() reports it: 17 buttons, those in pressed held down. */
const padWith = (pressed: number[], index = 0) => ({
  index,
  axes: [0, 0],
  buttons: Array.from({ length: 17 }, (_, i) => ({ pressed: pressed.includes(i), value: pressed.includes(i) ? 1 : 0 })),
});

const row = (name: string) => screen.getByRole('row', { name: new RegExp(`^${name}\\b`) });

describe('ControlsPanel', () => {
  beforeAll(async () => {
    await initTestI18n('en');
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    Reflect.deleteProperty(navigator, 'getGamepads');
  });

  it('binds a pressed key to a button, Escape cancels, reset brings the defaults back', () => {
    const spy = vi.fn();
    const reset = vi.fn();
    renderWithShell(<Harness spy={spy} reset={reset} />);
    expect(within(row('A')).getAllByRole('cell')[0].textContent).toBe('X');
    // No gamepad API in this browser: no gamepad column.
    expect(screen.queryByRole('button', { name: 'Bind a gamepad button to A' })).toBeNull();

    expect(screen.getByRole('button', { name: 'Bind a key to A' }).getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(screen.getByRole('button', { name: 'Bind a key to A' }));
    expect(screen.getByRole('button', { name: 'Bind a key to A' }).textContent).toBe('Press a key…');
    // the wait is the button's state, which its label (naming the button bound) does not say
    expect(screen.getByRole('button', { name: 'Bind a key to A', pressed: true })).toBeTruthy();
    fireEvent.keyDown(window, { code: 'KeyK' });
    expect(screen.getByRole('button', { name: 'Bind a key to A', pressed: false })).toBeTruthy();
    expect(spy).toHaveBeenLastCalledWith({ keys: expect.objectContaining({ KeyK: BUTTON.A }) });
    expect(spy.mock.calls[0][0].keys.KeyX).toBeUndefined();
    expect(within(row('A')).getAllByRole('cell')[0].textContent).toBe('K');

    fireEvent.click(screen.getByRole('button', { name: 'Bind a key to B' }));
    fireEvent.keyDown(window, { code: 'Escape' });
    expect(spy).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Bind a key to B' }).textContent).toBe('Change');

    fireEvent.click(screen.getByRole('button', { name: 'Reset to defaults' }));
    expect(reset).toHaveBeenCalled();
    expect(within(row('A')).getAllByRole('cell')[0].textContent).toBe('X');
  });

  it('binds the gamepad button pressed while it waits, not one held before', () => {
    vi.useFakeTimers();
    let pads: Array<ReturnType<typeof padWith> | null> = [padWith([4]), null];
    Object.defineProperty(navigator, 'getGamepads', { configurable: true, value: vi.fn(() => pads) });
    const spy = vi.fn();
    renderWithShell(<Harness spy={spy} reset={vi.fn()} />);
    // The standard layout by default: the right face button (1) is A.
    expect(within(row('A')).getAllByRole('cell')[2].textContent).toBe('Button 1');
    expect(within(row('Up')).getAllByRole('cell')[2].textContent).toBe('D-pad ↑');

    fireEvent.click(screen.getByRole('button', { name: 'Bind a gamepad button to A' }));
    expect(screen.getByRole('button', { name: 'Bind a gamepad button to A', pressed: true }).textContent).toBe('Press a gamepad button…');
    // L (4) was already held when the wait began: it does not count.
    act(() => void vi.advanceTimersByTime(PAD_POLL_MS * 3));
    expect(spy).not.toHaveBeenCalled();
    pads = [padWith([4, 2]), null];
    act(() => void vi.advanceTimersByTime(PAD_POLL_MS));
    expect(spy).toHaveBeenCalledWith({ pad: expect.objectContaining({ 2: BUTTON.A }) });
    // The left button was Y's; now it is A's, and button 1 is free.
    const pad = spy.mock.calls[0][0].pad as Record<number, ButtonId>;
    expect(pad[1]).toBeUndefined();
    expect(Object.values(pad).filter((id) => id === BUTTON.Y)).toEqual([]);
    expect(within(row('A')).getAllByRole('cell')[2].textContent).toBe('Button 2');
    expect(screen.getByRole('button', { name: 'Bind a gamepad button to A' }).textContent).toBe('Change');
    // Polling stops once bound.
    const calls = (navigator.getGamepads as unknown as ReturnType<typeof vi.fn>).mock.calls.length;
    act(() => void vi.advanceTimersByTime(PAD_POLL_MS * 5));
    expect((navigator.getGamepads as unknown as ReturnType<typeof vi.fn>).mock.calls.length).toBe(calls);
  });

  it('takes the press that makes a pad appear, and Escape stops a gamepad wait', () => {
    vi.useFakeTimers();
    let pads: Array<ReturnType<typeof padWith> | null> = [null, null];
    Object.defineProperty(navigator, 'getGamepads', { configurable: true, value: vi.fn(() => pads) });
    const spy = vi.fn();
    renderWithShell(<Harness spy={spy} reset={vi.fn()} />);
    fireEvent.click(screen.getByRole('button', { name: 'Bind a gamepad button to Start' }));
    act(() => void vi.advanceTimersByTime(PAD_POLL_MS * 2));
    // Browsers show a pad to the page on its first press: that press binds.
    pads = [null, padWith([9], 1)];
    act(() => void vi.advanceTimersByTime(PAD_POLL_MS));
    expect(spy).toHaveBeenLastCalledWith({ pad: expect.objectContaining({ 9: BUTTON.START }) });

    fireEvent.click(screen.getByRole('button', { name: 'Bind a gamepad button to Select' }));
    fireEvent.keyDown(window, { code: 'Escape' });
    pads = [null, padWith([9, 8], 1)];
    act(() => void vi.advanceTimersByTime(PAD_POLL_MS * 3));
    expect(spy).toHaveBeenCalledTimes(1);
  });
});
