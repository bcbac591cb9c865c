// The player's keyboard mapping per console, kept in this browser (localStorage) and handed to the
// sandboxed player, which has no storage of its own.
import { KEYBOARD, validKeymap, type ButtonId } from './emulator/input';

const key = (consoleId: string) => `devhub-games-keys:${consoleId}`;

export function loadKeymap(consoleId: string): Record<string, ButtonId> {
  try {
    return validKeymap(JSON.parse(localStorage.getItem(key(consoleId)) ?? 'null')) ?? { ...KEYBOARD };
  } catch {
    return { ...KEYBOARD };
  }
}

export function saveKeymap(consoleId: string, map: Record<string, ButtonId> | null): void {
  try {
    if (map) localStorage.setItem(key(consoleId), JSON.stringify(map));
    else localStorage.removeItem(key(consoleId));
  } catch {
    /* storage unavailable: the mapping lasts this page only */
  }
}

/** A key code as people read it: KeyX → X, ArrowUp → ↑, Digit1 → 1. */
export function keyLabel(code: string): string {
  const arrows: Record<string, string> = { ArrowUp: '↑', ArrowDown: '↓', ArrowLeft: '←', ArrowRight: '→' };
  return arrows[code] ?? code.replace(/^Key/, '').replace(/^Digit/, '');
}
