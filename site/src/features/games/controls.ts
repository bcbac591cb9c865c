// The player's controls per console: keyboard keys and gamepad buttons to joypad buttons. A
// signed-in player's live on the server (/api/games/controls/:console, hooks in api.ts), so they
// follow the player to another device; a guest's stay in this browser (localStorage). Either way
// the page hands them to the sandboxed player, which has no storage of its own.
import { GAMEPAD_BUTTONS, KEYBOARD, validKeymap, validPadmap, type ButtonId } from './emulator/input';

/** A console's controls as stored: a null map means that kind's defaults (nothing rebound). */
export interface Controls {
  keys: Record<string, ButtonId> | null;
  pad: Record<number, ButtonId> | null;
}

export const DEFAULT_CONTROLS: Controls = { keys: null, pad: null };

/** The mappings in force: each stored one, or its defaults. */
export function effective(c: Controls): { keys: Record<string, ButtonId>; pad: Record<number, ButtonId> } {
  return { keys: c.keys ?? { ...KEYBOARD }, pad: c.pad ?? { ...GAMEPAD_BUTTONS } };
}

const keysKey = (consoleId: string) => `devhub-games-keys:${consoleId}`;
const padKey = (consoleId: string) => `devhub-games-pad:${consoleId}`;

function read<T>(key: string, valid: (v: unknown) => T | undefined): T | null {
  try {
    return valid(JSON.parse(localStorage.getItem(key) ?? 'null')) ?? null;
  } catch {
    return null;
  }
}

/** A guest's controls for a console, from this browser. */
export function loadLocalControls(consoleId: string): Controls {
  return { keys: read(keysKey(consoleId), validKeymap), pad: read(padKey(consoleId), validPadmap) };
}

/** Keeps a guest's controls in this browser; null maps (the defaults) are removed. */
export function saveLocalControls(consoleId: string, c: Controls): void {
  try {
    for (const [k, v] of [
      [keysKey(consoleId), c.keys],
      [padKey(consoleId), c.pad],
    ] as const) {
      if (v) localStorage.setItem(k, JSON.stringify(v));
      else localStorage.removeItem(k);
    }
  } catch {
    /* storage unavailable: the mapping lasts this page only */
  }
}

/** A key code as people read it: KeyX → X, ArrowUp → ↑, Digit1 → 1. */
export function keyLabel(code: string): string {
  const arrows: Record<string, string> = { ArrowUp: '↑', ArrowDown: '↓', ArrowLeft: '←', ArrowRight: '→' };
  return arrows[code] ?? code.replace(/^Key/, '').replace(/^Digit/, '');
}
