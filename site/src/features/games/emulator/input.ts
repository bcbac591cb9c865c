// Input for the player: the libretro joypad ids the EmulatorJS cores take through
// Module._simulate_input(player, id, 0|1) (Nostalgist's own press() has no effect with them),
// the documented keyboard mapping, the standard Gamepad mapping, and a small state that merges
// keyboard, touch and gamepad so one source releasing a button does not cancel another.

/** libretro RETRO_DEVICE_ID_JOYPAD_* */
export const BUTTON = {
  B: 0,
  Y: 1,
  SELECT: 2,
  START: 3,
  UP: 4,
  DOWN: 5,
  LEFT: 6,
  RIGHT: 7,
  A: 8,
  X: 9,
  L: 10,
  R: 11,
} as const;
export type ButtonId = (typeof BUTTON)[keyof typeof BUTTON];

/**
 * Keyboard → joypad, by KeyboardEvent.code (layout-independent). Documented in docs/emulator.md
 * and in the player's help panel. RetroArch's defaults: X/Z for A/B, S/A for X/Y, Q/W for L/R.
 */
export const KEYBOARD: Record<string, ButtonId> = {
  ArrowUp: BUTTON.UP,
  ArrowDown: BUTTON.DOWN,
  ArrowLeft: BUTTON.LEFT,
  ArrowRight: BUTTON.RIGHT,
  KeyX: BUTTON.A,
  KeyZ: BUTTON.B,
  KeyS: BUTTON.X,
  KeyA: BUTTON.Y,
  KeyQ: BUTTON.L,
  KeyW: BUTTON.R,
  Enter: BUTTON.START,
  ShiftRight: BUTTON.SELECT,
  ShiftLeft: BUTTON.SELECT,
};

/** Buttons a player can bind, in the order the controls panel lists them. */
export const BINDABLE: Array<[string, ButtonId]> = [
  ['Up', BUTTON.UP],
  ['Down', BUTTON.DOWN],
  ['Left', BUTTON.LEFT],
  ['Right', BUTTON.RIGHT],
  ['A', BUTTON.A],
  ['B', BUTTON.B],
  ['X', BUTTON.X],
  ['Y', BUTTON.Y],
  ['L', BUTTON.L],
  ['R', BUTTON.R],
  ['Start', BUTTON.START],
  ['Select', BUTTON.SELECT],
];

const BUTTON_IDS = new Set<number>(Object.values(BUTTON));

/**
 * A keyboard mapping as it arrives over postMessage or from storage, if it is one: key codes to
 * known button ids, at most 64 keys; undefined otherwise.
 */
export function validKeymap(map: unknown): Record<string, ButtonId> | undefined {
  if (typeof map !== 'object' || map === null || Array.isArray(map)) return undefined;
  const entries = Object.entries(map as Record<string, unknown>);
  if (entries.length > 64) return undefined;
  const out: Record<string, ButtonId> = {};
  for (const [code, id] of entries) {
    if (!/^[A-Za-z0-9]{1,32}$/.test(code) || typeof id !== 'number' || !BUTTON_IDS.has(id)) return undefined;
    out[code] = id as ButtonId;
  }
  return out;
}

/** Binds code to button: the button's other keys and the code's other button are unbound. */
export function bindKey(map: Record<string, ButtonId>, button: ButtonId, code: string): Record<string, ButtonId> {
  const out: Record<string, ButtonId> = {};
  for (const [c, id] of Object.entries(map)) if (id !== button && c !== code) out[c] = id;
  out[code] = button;
  return out;
}

/** The highest gamepad button index a mapping may name (the server's limit too). */
export const MAX_PAD_BUTTON = 31;

/**
 * A gamepad mapping as it arrives over postMessage, from storage or from the server, if it is
 * one: button indexes ("0"…"31", as JSON keys are strings) to known button ids, at most 64.
 */
export function validPadmap(map: unknown): Record<number, ButtonId> | undefined {
  if (typeof map !== 'object' || map === null || Array.isArray(map)) return undefined;
  const entries = Object.entries(map as Record<string, unknown>);
  if (entries.length > 64) return undefined;
  const out: Record<number, ButtonId> = {};
  for (const [index, id] of entries) {
    if (!/^(0|[1-9][0-9]?)$/.test(index) || Number(index) > MAX_PAD_BUTTON) return undefined;
    if (typeof id !== 'number' || !BUTTON_IDS.has(id)) return undefined;
    out[Number(index)] = id as ButtonId;
  }
  return out;
}

/** Binds a gamepad button to a joypad button, as bindKey does for keys. */
export function bindPad(map: Record<number, ButtonId>, button: ButtonId, index: number): Record<number, ButtonId> {
  const out: Record<number, ButtonId> = {};
  for (const [i, id] of Object.entries(map)) if (id !== button && Number(i) !== index) out[Number(i)] = id;
  out[index] = button;
  return out;
}

/**
 * The first button pressed on any pad that was not held in before (index per pad): what the
 * controls panel binds while it waits. before is updated so a held button counts once; the
 * seeding call only records what is held when the wait starts.
 */
export function newlyPressed(
  pads: ReadonlyArray<{ index: number; buttons: ReadonlyArray<{ pressed: boolean }> } | null>,
  before: Map<number, Set<number>>,
  seeding = false,
): number | undefined {
  let found: number | undefined;
  for (const pad of pads) {
    if (!pad) continue;
    const held = new Set<number>();
    pad.buttons.forEach((b, i) => {
      if (b.pressed) held.add(i);
    });
    // A pad first seen while waiting counts all it holds: browsers show a pad to a page only once
    // one of its buttons is pressed, so that press is the one to bind.
    const was = seeding ? undefined : (before.get(pad.index) ?? new Set<number>());
    if (was && found === undefined) {
      for (const i of held) {
        if (!was.has(i) && i <= MAX_PAD_BUTTON) {
          found = i;
          break;
        }
      }
    }
    before.set(pad.index, held);
  }
  return found;
}

/** Keys for the player's own commands. */
export const COMMAND_KEYS: Record<string, 'pause' | 'save' | 'load' | 'fullscreen' | 'mute' | 'restart' | 'screenshot'> = {
  KeyP: 'pause',
  F8: 'screenshot',
  F2: 'save',
  F4: 'load',
  KeyF: 'fullscreen',
  KeyM: 'mute',
  KeyR: 'restart',
};

/** Held down, runs the game faster (RetroArch's default key). */
export const FAST_FORWARD_KEY = 'Space';

/** The rows of the help panel: [keys, what they do]. */
export const KEY_HELP: Array<[string, string]> = [
  ['← ↑ → ↓', 'dpad'],
  ['X', 'A'],
  ['Z', 'B'],
  ['S', 'X'],
  ['A', 'Y'],
  ['Q / W', 'L / R'],
  ['Enter', 'Start'],
  ['Shift', 'Select'],
  ['P', 'pause'],
  ['R', 'restart'],
  ['F2 / F4', 'saveLoad'],
  ['F', 'fullscreen'],
  ['M', 'mute'],
  ['Space', 'fastForward'],
  ['F8', 'screenshot'],
];

/**
 * Cores of consoles whose pads have only two face buttons (A and B): the touch pad leaves out
 * X and Y for them. NES, Game Boy (Color), GBA, Lynx, Atari, Neo Geo Pocket, PC Engine,
 * Virtual Boy, ColecoVision.
 */
const TWO_FACE_BUTTON_CORES = new Set([
  'fceumm',
  'nestopia',
  'quicknes',
  'gambatte',
  'mgba',
  'handy',
  'stella2014',
  'prosystem',
  'a5200',
  'mednafen_ngp',
  'mednafen_pce',
  'beetle_vb',
  'gearcoleco',
]);

/** The face buttons the touch pad shows for a core, left to right. */
export function touchFaceButtons(core: string): Array<'y' | 'x' | 'b' | 'a'> {
  return TWO_FACE_BUTTON_CORES.has(core) ? ['b', 'a'] : ['y', 'x', 'b', 'a'];
}

/**
 * W3C "standard" gamepad layout → joypad, Nintendo-style: the bottom face button is B, the
 * right one A, the left one Y, the top one X.
 */
export const GAMEPAD_BUTTONS: Record<number, ButtonId> = {
  0: BUTTON.B,
  1: BUTTON.A,
  2: BUTTON.Y,
  3: BUTTON.X,
  4: BUTTON.L,
  5: BUTTON.R,
  8: BUTTON.SELECT,
  9: BUTTON.START,
  12: BUTTON.UP,
  13: BUTTON.DOWN,
  14: BUTTON.LEFT,
  15: BUTTON.RIGHT,
};

/** Stick deflection that counts as a D-pad press. */
export const AXIS_THRESHOLD = 0.5;

/**
 * The joypad buttons a gamepad's state holds down: its buttons through map (the player's own
 * mapping, else the standard layout) and the left stick as the D-pad.
 */
export function gamepadButtons(
  pad: { buttons: ReadonlyArray<{ pressed: boolean }>; axes: ReadonlyArray<number> },
  map: Record<number, ButtonId> = GAMEPAD_BUTTONS,
): Set<ButtonId> {
  const held = new Set<ButtonId>();
  pad.buttons.forEach((b, i) => {
    const id = map[i];
    if (b.pressed && id !== undefined) held.add(id);
  });
  const [x = 0, y = 0] = pad.axes;
  if (x <= -AXIS_THRESHOLD) held.add(BUTTON.LEFT);
  if (x >= AXIS_THRESHOLD) held.add(BUTTON.RIGHT);
  if (y <= -AXIS_THRESHOLD) held.add(BUTTON.UP);
  if (y >= AXIS_THRESHOLD) held.add(BUTTON.DOWN);
  return held;
}

/**
 * Merges input sources: a button is down while any source holds it. send is called only when
 * a button's merged state changes.
 */
export class InputState {
  private holders = new Map<ButtonId, Set<string>>();

  constructor(private readonly send: (id: ButtonId, down: boolean) => void) {}

  set(source: string, id: ButtonId, down: boolean): void {
    let set = this.holders.get(id);
    if (!set) {
      set = new Set();
      this.holders.set(id, set);
    }
    const before = set.size > 0;
    if (down) set.add(source);
    else set.delete(source);
    const after = set.size > 0;
    if (before !== after) this.send(id, after);
  }

  /** Makes source hold exactly the given buttons (gamepad polling). */
  setAll(source: string, held: Set<ButtonId>): void {
    for (const id of Object.values(BUTTON)) this.set(source, id, held.has(id));
  }

  /** Releases everything (the frame lost focus: keyup events will not come). */
  releaseAll(): void {
    for (const [id, set] of this.holders) {
      if (set.size > 0) {
        set.clear();
        this.send(id, false);
      }
    }
  }

  isDown(id: ButtonId): boolean {
    return (this.holders.get(id)?.size ?? 0) > 0;
  }
}
