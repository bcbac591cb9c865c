// The generator's keyboard shortcuts (after szynalski's tone generator), as a pure mapping from a
// key event to an action so the bindings are tested without a browser.

export type KeyAction =
  | { type: 'toggle' }
  | { type: 'nudge'; direction: 1 | -1; shift: boolean; fine: boolean }
  | { type: 'semitone'; semitones: 1 | -1 };

export interface KeyLike {
  key: string;
  shiftKey?: boolean;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
}

/** Space: play/stop; ←/→: ±1 Hz (Shift ±10, Ctrl/⌘ ±0.01); ↑/↓: one semitone. Alt is left to the browser. */
export function keyAction(e: KeyLike): KeyAction | null {
  if (e.altKey) return null;
  const fine = !!(e.ctrlKey || e.metaKey);
  switch (e.key) {
    case ' ':
    case 'Spacebar':
      return fine ? null : { type: 'toggle' };
    case 'ArrowRight':
      return { type: 'nudge', direction: 1, shift: !!e.shiftKey, fine };
    case 'ArrowLeft':
      return { type: 'nudge', direction: -1, shift: !!e.shiftKey, fine };
    case 'ArrowUp':
      return fine ? null : { type: 'semitone', semitones: 1 };
    case 'ArrowDown':
      return fine ? null : { type: 'semitone', semitones: -1 };
    default:
      return null;
  }
}

/**
 * Whether a key press belongs to the focused element instead: typing in a field, moving a
 * slider, or Space/Enter on a button (which presses that button).
 */
export function keyBelongsToTarget(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') {
    const type = (target as HTMLInputElement).type;
    return !(type === 'checkbox' || type === 'radio' || type === 'button') || key === ' ';
  }
  if (tag === 'BUTTON' || tag === 'A' || target.getAttribute('role') === 'button') return key === ' ';
  return !!target.closest('[role="dialog"], [role="alertdialog"]');
}
