// The messages between the games page and the player frame. The frame is sandboxed without
// allow-same-origin, so it has an opaque origin and no IndexedDB of its own: save states live
// in the games page's IndexedDB and travel over postMessage. Both sides check who sent a
// message (event.source), never its origin string, which is "null" for the frame.

export const CHANNEL = 'devhub-emulator';

/** Frame → page. */
export type FromPlayer =
  | { channel: typeof CHANNEL; type: 'ready' }
  | { channel: typeof CHANNEL; type: 'started' }
  | { channel: typeof CHANNEL; type: 'error'; message: string }
  /** shot: a small PNG of the frame, for the slot list (slot saves and the autosave). */
  | { channel: typeof CHANNEL; type: 'save-state'; data: Uint8Array; slot?: string; shot?: Uint8Array }
  | { channel: typeof CHANNEL; type: 'load-state' }
  | { channel: typeof CHANNEL; type: 'state-applied'; ok: boolean }
  | { channel: typeof CHANNEL; type: 'screenshot'; data: Uint8Array };

/** Page → frame. */
export type ToPlayer =
  | { channel: typeof CHANNEL; type: 'state'; data: Uint8Array | null }
  | { channel: typeof CHANNEL; type: 'state-saved'; ok: boolean }
  | { channel: typeof CHANNEL; type: 'has-state'; exists: boolean }
  /**
   * The player's own mapping: keyboard (KeyboardEvent.code → libretro button id) and gamepad
   * (standard-layout button index → libretro button id).
   */
  | { channel: typeof CHANNEL; type: 'keymap'; map: Record<string, number>; pad?: Record<number, number> }
  /** Asks the frame for its current state; it answers save-state with the same slot. */
  | { channel: typeof CHANNEL; type: 'capture'; slot: string };

/** A message without its channel tag, for each member of a union. */
export type Body<T> = T extends unknown ? Omit<T, 'channel'> : never;

export function isMessage<T extends { channel: string; type: string }>(data: unknown): data is T {
  return (
    typeof data === 'object' &&
    data !== null &&
    (data as { channel?: unknown }).channel === CHANNEL &&
    typeof (data as { type?: unknown }).type === 'string'
  );
}

/** The player accepts only a core name (installed or the spec's) and a ROM from this server's ROM service. */
export function validParams(coreName: string, url: string): boolean {
  if (!/^[A-Za-z0-9_]{1,40}$/.test(coreName)) return false;
  if (!url.startsWith('/romserv/') || url.startsWith('/romserv//') || url.includes('\\')) return false;
  return !url.split('/').some((seg) => seg === '..' || seg === '.' || /%2e%2e/i.test(seg));
}

/** A core as /cores/index.json names it: its libretro name and the hub spec's names it runs. */
export interface CoreName {
  name: string;
  aliases?: string[];
}

/**
 * The installed core a `core` query value means: an installed core's own name (fceumm), else
 * the core's name of what it runs (nes, snes, segaMD, gba, gb, …; the server lists them per
 * core as aliases). Undefined when nothing installed runs it — the player says so.
 */
export function resolveCore<T extends CoreName>(cores: readonly T[], name: string): T | undefined {
  return cores.find((c) => c.name === name) ?? cores.find((c) => c.aliases?.includes(name));
}
