// The player page (emulator.html?core=…&gameUrl=…&lang=…), loaded by the games page in an iframe
// sandboxed with allow-scripts only. It runs Nostalgist with this server's own files and nothing
// else: the EmulatorJS core from /cores/ (see shared/notes/emulator-offline.md for the two
// adaptations), the ROM from /romserv/. Where Nostalgist's calls do not work with these cores
// (input, pause, save and load state) it uses the core's own exports on the Emscripten Module.
import { Nostalgist } from 'nostalgist';
import {
  BUTTON,
  COMMAND_KEYS,
  FAST_FORWARD_KEY,
  GAMEPAD_BUTTONS,
  InputState,
  KEYBOARD,
  KEY_HELP,
  gamepadButtons,
  touchFaceButtons,
  validKeymap,
  validPadmap,
  type ButtonId,
} from './input';
import { CHANNEL, isMessage, resolveCore, validParams, type Body, type CoreName, type FromPlayer, type ToPlayer } from './protocol';
import { MAX_THUMB_BYTES, THUMB_WIDTH, downscalePng } from './thumbnail';
import { strings, type StringKey } from './strings';
import { guardWakeLock } from './wakeLock';
import './emulator.css';

const params = new URLSearchParams(location.search);
const core = params.get('core') ?? '';
const gameUrl = params.get('gameUrl') ?? '';
const t = strings(params.get('lang'));
document.documentElement.lang = params.get('lang') ?? 'en';

const app = document.getElementById('emu-app') as HTMLElement;
const stage = document.getElementById('emu-stage') as HTMLDivElement;
const canvas = document.getElementById('emu-canvas') as HTMLCanvasElement;
const statusEl = document.getElementById('emu-status') as HTMLDivElement;
const toolbar = document.getElementById('emu-toolbar') as HTMLDivElement;
const touch = document.getElementById('emu-touch') as HTMLDivElement;
const help = document.getElementById('emu-help') as HTMLDivElement;

/** The bits of the EmulatorJS Emscripten Module this page uses. */
interface CoreModule {
  HEAPU8: Uint8Array;
  FS: { writeFile(path: string, data: Uint8Array): void; unlink(path: string): void; readFile(path: string): Uint8Array };
  cwrap(name: string, ret: string | null, args: string[]): (...a: unknown[]) => unknown;
  pauseMainLoop(): void;
  resumeMainLoop(): void;
  _simulate_input(player: number, id: number, value: number): void;
  _get_current_frame_count?(): number;
  _supports_states?(): number;
  _system_restart?(): void;
  _toggle_fastforward?(on: number): void;
  _cmd_take_screenshot?(): void;
  AL?: OpenAL;
}
interface OpenAL {
  currentCtx?: {
    audioCtx?: AudioContext;
    gain?: GainNode;
    sources?: Record<string, { gain?: GainNode } | null>;
  };
}

let nostalgist: Nostalgist | null = null;
let mod: CoreModule | null = null;
let paused = false;
let muted = false;
let volume = 1;
let fastForward = false;
let statusTimer: number | undefined;

// --- Talking to the games page ---------------------------------------------------------------
// Only the page that embeds this player is addressed, by the server's origin (this document's
// own origin is opaque).
const parentOrigin = location.origin && location.origin !== 'null' ? location.origin : '*';

function post(msg: Body<FromPlayer>): void {
  if (window.parent === window) return;
  window.parent.postMessage({ channel: CHANNEL, ...msg }, parentOrigin);
}

window.addEventListener('message', (e: MessageEvent) => {
  if (e.source !== window.parent || !isMessage<ToPlayer>(e.data)) return;
  const msg = e.data;
  switch (msg.type) {
    case 'state':
      if (msg.data && msg.data.byteLength > 0) applyState(msg.data);
      else flash('noState');
      break;
    case 'state-saved':
      flash(msg.ok ? 'saved' : 'saveFailed');
      if (msg.ok) loadButton.disabled = false;
      break;
    case 'has-state':
      loadButton.disabled = !msg.exists || !statesSupported();
      break;
    case 'keymap':
      keymap = validKeymap(msg.map) ?? { ...KEYBOARD };
      padmap = validPadmap(msg.pad) ?? { ...GAMEPAD_BUTTONS };
      input.releaseAll();
      break;
    case 'capture': {
      const data = readState();
      if (!data) {
        flash(statesSupported() ? 'saveFailed' : 'noStates');
        break;
      }
      // The page keeps the slot's thumbnail beside the state: the frame a moment after it.
      const slot = msg.slot;
      void freshThumbnail().then((shot) => post({ type: 'save-state', data, slot, shot: shot ?? undefined }));
      break;
    }
  }
});

// The autosave: a fresh state goes to the page every few seconds and when this page is hidden,
// so the page always holds a recent one to keep when the player is left.
// Each carries a thumbnail of the game screen: taken now when the game runs and is seen, else the
// last one (a hidden page runs no frames, so none could be taken before it goes).
const AUTOSAVE_MS = 5000;
function autosave(): void {
  // Opened on its own, no page keeps the state.
  if (!mod || paused || window.parent === window) return;
  const data = readState();
  if (data) post({ type: 'save-state', data, slot: 'auto', shot: lastThumbnail ?? undefined });
}
async function autosaveTick(): Promise<void> {
  if (!mod || paused || window.parent === window) return;
  const data = readState();
  if (!data) return;
  const shot = await freshThumbnail();
  post({ type: 'save-state', data, slot: 'auto', shot: shot ?? undefined });
}
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden') autosave();
});
window.addEventListener('pagehide', autosave);

// --- Status line -------------------------------------------------------------------------------
function showStatus(text: string, sticky = true): void {
  window.clearTimeout(statusTimer);
  statusEl.textContent = text;
  statusEl.hidden = text === '';
  if (!sticky) statusTimer = window.setTimeout(() => showStatus(paused ? t('paused') : ''), 2000);
}

function flash(key: StringKey): void {
  showStatus(t(key), false);
}

function fail(message: string): void {
  showStatus(message);
  stage.classList.add('emu-failed');
  post({ type: 'error', message });
}

interface CoreInfo extends CoreName {
  js: string;
  wasm: string;
}

const abs = (path: string) => new URL(path, location.href).href;

// --- Input -------------------------------------------------------------------------------------
/** The keyboard mapping in use: the defaults until the page sends the player's own. */
let keymap: Record<string, ButtonId> = { ...KEYBOARD };
/** The gamepad mapping in use (button index → joypad button), the standard layout until then. */
let padmap: Record<number, ButtonId> = { ...GAMEPAD_BUTTONS };

const input = new InputState((id, down) => mod?._simulate_input(0, id, down ? 1 : 0));

function onKey(e: KeyboardEvent, down: boolean): void {
  if (e.target instanceof HTMLInputElement) return;
  // Enter and Space on a focused toolbar button press that button, not Start.
  if (e.target instanceof HTMLButtonElement && ['Enter', 'NumpadEnter', 'Space'].includes(e.code)) return;
  if (e.code === FAST_FORWARD_KEY) {
    e.preventDefault();
    if (!e.repeat) setFastForward(down);
    return;
  }
  const cmd = COMMAND_KEYS[e.code];
  if (cmd) {
    if (down && !e.repeat) runCommand(cmd);
    e.preventDefault();
    return;
  }
  const id = keymap[e.code];
  if (id === undefined) return;
  e.preventDefault();
  if (!e.repeat || down) input.set('keyboard', id, down);
  resumeAudio();
}
// A click or touch on the game screen gives the keyboard back to the game: the core's own
// handlers keep the focus from moving, so a slider or button clicked before would keep it.
stage.addEventListener('pointerdown', () => {
  if (document.activeElement instanceof HTMLElement && document.activeElement !== document.body) document.activeElement.blur();
});
window.addEventListener('keydown', (e) => onKey(e, true));
window.addEventListener('keyup', (e) => onKey(e, false));
window.addEventListener('blur', () => input.releaseAll());

let polling = false;
function pollGamepads(): void {
  const pads = navigator.getGamepads?.() ?? [];
  let any = false;
  pads.forEach((pad, i) => {
    if (!pad) {
      input.setAll(`pad${i}`, new Set());
      return;
    }
    any = true;
    input.setAll(`pad${i}`, gamepadButtons(pad, padmap));
  });
  if (any) requestAnimationFrame(pollGamepads);
  else polling = false;
}
window.addEventListener('gamepadconnected', () => {
  if (!polling) {
    polling = true;
    requestAnimationFrame(pollGamepads);
  }
});

const TOUCH_BUTTONS: Array<[string, ButtonId, string]> = [
  ['↑', BUTTON.UP, 'up'],
  ['←', BUTTON.LEFT, 'left'],
  ['→', BUTTON.RIGHT, 'right'],
  ['↓', BUTTON.DOWN, 'down'],
  ['Select', BUTTON.SELECT, 'select'],
  ['Start', BUTTON.START, 'start'],
  ['Y', BUTTON.Y, 'y'],
  ['X', BUTTON.X, 'x'],
  ['B', BUTTON.B, 'b'],
  ['A', BUTTON.A, 'a'],
];

function setFastForward(on: boolean): void {
  if (!mod?._toggle_fastforward || on === fastForward) return;
  fastForward = on;
  mod._toggle_fastforward(on ? 1 : 0);
  showStatus(on ? t('fastForwarding') : paused ? t('paused') : '');
}

/** The touch pad: the d-pad, Select/Start and only the face buttons the console has. */
function buildTouchControls(coreName: string): void {
  const dpad = el('div', 'emu-dpad');
  const meta = el('div', 'emu-meta');
  const face = el('div', 'emu-face');
  const faces: string[] = touchFaceButtons(coreName);
  for (const [label, id, name] of TOUCH_BUTTONS) {
    if (['x', 'y', 'a', 'b'].includes(name) && !faces.includes(name)) continue;
    const b = el('button', `emu-touch-btn emu-touch-${name}`);
    b.type = 'button';
    b.textContent = label;
    const source = `touch-${name}`;
    b.addEventListener('pointerdown', (e) => {
      e.preventDefault();
      b.setPointerCapture(e.pointerId);
      b.classList.add('emu-held');
      input.set(source, id, true);
      resumeAudio();
    });
    const up = () => {
      b.classList.remove('emu-held');
      input.set(source, id, false);
    };
    b.addEventListener('pointerup', up);
    b.addEventListener('pointercancel', up);
    b.addEventListener('lostpointercapture', up);
    b.addEventListener('contextmenu', (e) => e.preventDefault());
    (['up', 'down', 'left', 'right'].includes(name) ? dpad : name === 'select' || name === 'start' ? meta : face).append(b);
  }
  touch.append(dpad, meta, face);
}

// --- Commands ------------------------------------------------------------------------------------
function el<K extends keyof HTMLElementTagNameMap>(tag: K, className: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  return node;
}

function toolButton(key: StringKey, onClick: () => void): HTMLButtonElement {
  const b = el('button', 'emu-btn');
  b.type = 'button';
  b.textContent = t(key);
  b.disabled = true;
  b.addEventListener('click', () => {
    onClick();
    resumeAudio();
  });
  toolbar.append(b);
  return b;
}

const pauseButton = toolButton('pause', () => runCommand('pause'));
const restartButton = toolButton('restart', () => runCommand('restart'));
const saveButton = toolButton('save', () => runCommand('save'));
const loadButton = toolButton('load', () => runCommand('load'));
const muteButton = toolButton('mute', () => runCommand('mute'));
const volumeInput = el('input', 'emu-volume');
volumeInput.type = 'range';
volumeInput.min = '0';
volumeInput.max = '100';
volumeInput.value = '100';
volumeInput.setAttribute('aria-label', t('volume'));
volumeInput.addEventListener('input', () => {
  volume = Number(volumeInput.value) / 100;
  if (volume > 0 && muted) setMuted(false);
  applyVolume();
});
toolbar.append(volumeInput);
const screenshotButton = toolButton('screenshot', () => runCommand('screenshot'));
const fullscreenButton = toolButton('fullscreen', () => runCommand('fullscreen'));
fullscreenButton.disabled = !document.fullscreenEnabled;
document.addEventListener('fullscreenchange', () =>
  fullscreenButton.setAttribute('aria-pressed', String(document.fullscreenElement === app)),
);
const keysButton = toolButton('keys', () => {
  help.hidden = !help.hidden;
});
keysButton.disabled = false;
keysButton.setAttribute('aria-controls', 'emu-help');

const TRANSLATED_HELP: StringKey[] = ['dpad', 'saveLoad', 'pause', 'restart', 'fullscreen', 'mute', 'fastForward', 'screenshot'];

function buildHelp(): void {
  const h = el('h2', 'emu-help-title');
  h.textContent = t('helpTitle');
  const table = el('table', 'emu-help-table');
  for (const [keys, what] of KEY_HELP) {
    const tr = el('tr', '');
    const k = el('th', '');
    k.textContent = keys;
    const d = el('td', '');
    d.textContent = TRANSLATED_HELP.includes(what as StringKey) ? t(what as StringKey) : what;
    tr.append(k, d);
    table.append(tr);
  }
  const p = el('p', '');
  p.textContent = t('gamepad');
  help.append(h, table, p);
}

function statesSupported(): boolean {
  return !!mod && (mod._supports_states ? mod._supports_states() !== 0 : true);
}

function runCommand(cmd: (typeof COMMAND_KEYS)[string]): void {
  if (!mod) return;
  switch (cmd) {
    case 'pause':
      paused = !paused;
      if (paused) {
        input.releaseAll();
        mod.pauseMainLoop();
      } else {
        mod.resumeMainLoop();
      }
      pauseButton.textContent = t(paused ? 'resume' : 'pause');
      pauseButton.setAttribute('aria-pressed', String(paused));
      showStatus(paused ? t('paused') : '');
      break;
    case 'restart':
      if (mod._system_restart) mod._system_restart();
      else nostalgist?.restart();
      break;
    case 'save': {
      const data = readState();
      if (!data) {
        flash(statesSupported() ? 'saveFailed' : 'noStates');
        return;
      }
      post({ type: 'save-state', data });
      break;
    }
    case 'load':
      post({ type: 'load-state' });
      break;
    case 'mute':
      setMuted(!muted);
      break;
    case 'screenshot':
      void takeScreenshot();
      break;
    case 'fullscreen':
      if (document.fullscreenElement) void document.exitFullscreen();
      // The whole player, not just the screen: the toolbar and the touch buttons stay usable.
      else void app.requestFullscreen?.().catch(() => undefined);
      break;
  }
}

// --- Screenshot: the core writes the current frame as a PNG into its file system ------------
const SHOT_FILE = '/screenshot.png';

// One screenshot at a time: the core writes every one to the same file.
let shooting: Promise<unknown> = Promise.resolve();

/** The current frame as the core's PNG, or null when it was not written within maxFrames. */
function corePng(maxFrames: number): Promise<Uint8Array | null> {
  const run = async (): Promise<Uint8Array | null> => {
    if (!mod?._cmd_take_screenshot) return null;
    try {
      mod.FS.unlink(SHOT_FILE);
    } catch {
      /* none yet */
    }
    mod._cmd_take_screenshot();
    // The core writes the file while running its next frames.
    for (let i = 0; i < maxFrames; i++) {
      await new Promise((r) => requestAnimationFrame(r));
      try {
        const png = mod.FS.readFile(SHOT_FILE);
        if (png.byteLength > 8) return png.slice();
      } catch {
        /* not written yet */
      }
    }
    return null;
  };
  const next = shooting.then(run, run);
  shooting = next.catch(() => undefined);
  return next;
}

async function takeScreenshot(): Promise<void> {
  const png = await corePng(120).catch(() => null);
  if (png) {
    post({ type: 'screenshot', data: png });
    flash('screenshotTaken');
  } else flash('screenshotFailed');
}

/** The newest slot thumbnail taken (sent with states saved while none can be taken). */
let lastThumbnail: Uint8Array | null = null;

/**
 * A thumbnail of the current frame for a save slot: taken now when the game runs on a visible
 * page (a paused or hidden game runs no frames, so the core would not write one), else the last
 * one taken. It never fails: the state it goes with is sent either way, a picture that could not
 * be taken (the core's screenshot call threw) must not cost the player the save.
 */
async function freshThumbnail(): Promise<Uint8Array | null> {
  if (paused || document.visibilityState !== 'visible') return lastThumbnail;
  const png = await corePng(30).catch(() => null);
  const small = png ? await downscalePng(png, THUMB_WIDTH).catch(() => null) : null;
  if (small && small.byteLength <= MAX_THUMB_BYTES) lastThumbnail = small;
  return lastThumbnail;
}

// --- Save states through the core's exports ---------------------------------------------------
/** save_state_info() serialises the state into the core's memory and answers "size|ptr|ok". */
function readState(): Uint8Array | null {
  if (!mod || !statesSupported()) return null;
  const info = String(mod.cwrap('save_state_info', 'string', [])());
  const [size, ptr] = info.split('|').map(Number);
  if (!size || size <= 0 || !Number.isFinite(ptr)) return null;
  return mod.HEAPU8.slice(ptr, ptr + size);
}

const STATE_FILE = '/devhub.state';

function applyState(data: Uint8Array): void {
  if (!mod) return;
  try {
    mod.FS.unlink(STATE_FILE);
  } catch {
    /* not there yet */
  }
  mod.FS.writeFile(STATE_FILE, data);
  let ok: boolean;
  try {
    const rc = mod.cwrap('load_state', 'number', ['string', 'number'])(STATE_FILE, 0);
    ok = rc === 0 || rc === undefined || rc === 1;
  } catch {
    ok = false;
  }
  if (paused) runCommand('pause');
  flash(ok ? 'loaded' : 'loadFailed');
  post({ type: 'state-applied', ok });
}

// --- Sound -------------------------------------------------------------------------------------
function openAL(): OpenAL | undefined {
  try {
    return (nostalgist?.getEmscriptenAL() as OpenAL | undefined) ?? mod?.AL;
  } catch {
    return mod?.AL;
  }
}

function applyVolume(): void {
  const ctx = openAL()?.currentCtx;
  if (!ctx) return;
  const v = muted ? 0 : volume;
  if (ctx.gain) ctx.gain.gain.value = v;
  for (const src of Object.values(ctx.sources ?? {})) if (src?.gain) src.gain.gain.value = v;
}

function setMuted(m: boolean): void {
  muted = m;
  muteButton.textContent = t(muted ? 'unmute' : 'mute');
  muteButton.setAttribute('aria-pressed', String(muted));
  applyVolume();
}

/** Browsers start audio only after a gesture inside this frame. */
function resumeAudio(): void {
  const audioCtx = openAL()?.currentCtx?.audioCtx;
  if (audioCtx && audioCtx.state === 'suspended') void audioCtx.resume();
  applyVolume();
}
window.addEventListener('pointerdown', resumeAudio);

// --- Start -------------------------------------------------------------------------------------
async function start(): Promise<void> {
  buildHelp();
  if (!validParams(core, gameUrl)) {
    fail(t('badParams'));
    return;
  }
  showStatus(t('loadingCore'));
  let info: CoreInfo | undefined;
  try {
    // A plain fetch: this page runs in a sandboxed frame without React, the query client or the
    // API client (no token, no /api), and reads the index once per start.
    const res = await fetch('/cores/index.json');
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const index = (await res.json()) as { cores: CoreInfo[] };
    info = resolveCore(index.cores, core);
  } catch (err) {
    fail(t('failed', { message: err instanceof Error ? err.message : String(err) }));
    return;
  }
  if (!info) {
    fail(t('noCore', { core }));
    return;
  }
  const coreInfo = info;
  buildTouchControls(coreInfo.name);
  const romName = decodeURIComponent(gameUrl.split('/').pop() ?? 'game');
  showStatus(t('loadingGame'));
  try {
    nostalgist = await Nostalgist.launch({
      element: canvas,
      core: coreInfo.name,
      rom: romName,
      resolveCoreJs: () => abs(coreInfo.js),
      resolveCoreWasm: () => abs(coreInfo.wasm),
      resolveRom: () => abs(gameUrl),
      // The EmulatorJS build looks up Module.parent (see the note).
      emscriptenModule: { parent: stage } as unknown as Record<string, never>,
      style: { width: '100%', height: '100%', backgroundColor: '#000' },
    });
  } catch (err) {
    fail(t('failed', { message: err instanceof Error ? err.message : String(err) }));
    return;
  }
  mod = nostalgist.getEmscriptenModule() as unknown as CoreModule;
  showStatus('');
  for (const b of [pauseButton, restartButton, saveButton, muteButton, screenshotButton]) b.disabled = false;
  saveButton.disabled = !statesSupported();
  window.setInterval(applyVolume, 1000);
  window.setInterval(() => void autosaveTick(), AUTOSAVE_MS);
  window.focus();
  post({ type: 'started' });
}

// A hook for the end-to-end test: frames the core has run (a cheap liveness probe), and the
// gains the sound really goes through (mute and volume are not visible on the canvas).
(window as unknown as { __devhubEmulator: unknown }).__devhubEmulator = {
  frames: () => mod?._get_current_frame_count?.() ?? 0,
  paused: () => paused,
  fastForward: () => fastForward,
  keymap: () => keymap,
  padmap: () => padmap,
  // Whether this frame has the keyboard, and whether the game holds a joypad button: a key
  // pressed before the first is true never reaches the game.
  focused: () => document.hasFocus(),
  isDown: (id: ButtonId) => input.isDown(id),
  gains: (): number[] | null => {
    const ctx = openAL()?.currentCtx;
    if (!ctx) return null;
    const gains = Object.values(ctx.sources ?? {}).flatMap((src) => (src?.gain ? [src.gain.gain.value] : []));
    if (ctx.gain) gains.push(ctx.gain.gain.value);
    return gains;
  },
};

// The core asks for a screen wake lock when the game runs; a refusal must not be an uncaught error.
guardWakeLock();
post({ type: 'ready' });
void start();
