// Everything the tone generator computes, kept free of React and Web Audio so each rule of the
// spec (§4 Tone generator, §5, §9) is one small function with a Vitest beside it.
import { formatNumber } from '../../../lib/numberFormat';

/** Spec §9: the tone frequency range, in Hz. */
export const MIN_FREQUENCY = 1;
export const MAX_FREQUENCY = 21000;
/** Spec §2: the exact-entry field's step. Frequencies are kept to this precision. */
export const FREQUENCY_STEP = 0.01;
/** Spec §9 defaults. */
export const DEFAULT_FREQUENCY = 440;
export const DEFAULT_VOLUME = 0.5;
export const DEFAULT_WAVEFORM: Waveform = 'sine';
/** Spec §9: a one-shot tone lasts 0.1 s; a loop plays 10 cycles 200 ms apart; errors clear after 5 s. */
export const ONE_SHOT_SECONDS = 0.1;
export const LOOP_CYCLES = 10;
export const LOOP_INTERVAL_MS = 200;
export const ERROR_CLEAR_MS = 5000;

export const WAVEFORMS = ['sine', 'square', 'sawtooth', 'triangle'] as const;
export type Waveform = (typeof WAVEFORMS)[number];

export type BandId = 'low' | 'mid' | 'high';
export interface Band {
  id: BandId;
  min: number;
  max: number;
  color: string;
}
/** Spec §2/§9: low 1-300, mid 301-800, high 801-21000. */
export const BANDS: readonly Band[] = [
  { id: 'low', min: 1, max: 300, color: '#1d5fc4' },
  { id: 'mid', min: 301, max: 800, color: '#1e7d45' },
  { id: 'high', min: 801, max: 21000, color: '#c0392b' },
];

/** Spec §4: up to 300 is low, up to 800 is mid, otherwise high (so 300.5 is mid, 800.5 high). */
export function bandFor(frequency: number): BandId {
  if (frequency <= 300) return 'low';
  if (frequency <= 800) return 'mid';
  return 'high';
}

/** Rounds to the 0.01 Hz step (and drops float noise such as 440.00000001). */
export function roundFrequency(frequency: number): number {
  return Math.round(frequency * 100) / 100;
}

export function clampFrequency(frequency: number): number {
  return Math.min(MAX_FREQUENCY, Math.max(MIN_FREQUENCY, frequency));
}

/**
 * Spec §9: 1000 Hz and above show in kHz with one decimal ("1.0 kHz"); below, in Hz with up to
 * two decimals and no trailing zeros ("440 Hz", "27.5 Hz"), in the reader's number format
 * ("27,5" in uk/ru). The unit is returned apart so the page can translate it.
 */
export function formatFrequency(frequency: number, lang = 'en'): { value: string; unit: 'Hz' | 'kHz' } {
  if (frequency >= 1000) return { value: formatNumber(frequency / 1000, lang, 1), unit: 'kHz' };
  return { value: formatNumber(roundFrequency(frequency), lang), unit: 'Hz' };
}

const NOTE_NAMES = ['C', 'C♯', 'D', 'D♯', 'E', 'F', 'F♯', 'G', 'G♯', 'A', 'A♯', 'B'];

/** The nearest equal-tempered note (A4 = 440 Hz) and how far off it is, in cents (−50…+50). */
export function noteFor(frequency: number): { name: string; octave: number; cents: number; label: string } {
  const fromA4 = 12 * Math.log2(frequency / 440);
  const nearest = Math.round(fromA4);
  let cents = Math.round((fromA4 - nearest) * 100);
  if (Object.is(cents, -0)) cents = 0;
  const midi = 69 + nearest;
  const name = NOTE_NAMES[((midi % 12) + 12) % 12];
  const octave = Math.floor(midi / 12) - 1;
  return { name, octave, cents, label: `${name}${octave}` };
}

/** "+5", "−12", "0" — the cents as shown beside the note. */
export function formatCents(cents: number): string {
  if (cents > 0) return `+${cents}`;
  if (cents < 0) return `−${Math.abs(cents)}`;
  return '0';
}

/**
 * Spec §5: an exact frequency must be a number from 1 to 21000 Hz. Accepts the field's text
 * (a comma decimal too); returns the value rounded to 0.01 Hz, or null when it is not valid.
 */
export function parseFrequency(input: string | number | null | undefined): number | null {
  if (input === null || input === undefined) return null;
  const text = typeof input === 'number' ? String(input) : input.trim().replace(',', '.');
  if (!/^[+]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text)) return null;
  const value = Number(text);
  if (!Number.isFinite(value) || value < MIN_FREQUENCY || value > MAX_FREQUENCY) return null;
  return roundFrequency(value);
}

/** ←/→ nudges: ±1 Hz, ±10 Hz with Shift, ±0.01 Hz with Ctrl/⌘; kept in range. */
export function nudgeFrequency(frequency: number, direction: 1 | -1, mods: { shift?: boolean; fine?: boolean } = {}): number {
  const step = mods.fine ? 0.01 : mods.shift ? 10 : 1;
  return clampFrequency(roundFrequency(frequency + direction * step));
}

/** ↑/↓: one equal-tempered semitone up or down (×2^(±1/12)), rounded to 0.01 Hz and kept in range. */
export function semitoneStep(frequency: number, semitones: number): number {
  return clampFrequency(roundFrequency(frequency * 2 ** (semitones / 12)));
}

/** ×½ / ×2 buttons: one octave down or up, kept in range. */
export function octaveStep(frequency: number, direction: 1 | -1): number {
  return clampFrequency(roundFrequency(direction > 0 ? frequency * 2 : frequency / 2));
}

/** Volume: the slider shows 0–100 % in 0.01 steps; the gain is 0–1. */
export function percentToGain(percent: number): number {
  return Math.min(1, Math.max(0, Math.round(percent * 100) / 10000));
}
export function gainToPercent(gain: number): number {
  return Math.round(gain * 10000) / 100;
}

export interface ToneSettings {
  frequency: number;
  waveform: Waveform;
  volume: number;
}
export const DEFAULT_SETTINGS: ToneSettings = {
  frequency: DEFAULT_FREQUENCY,
  waveform: DEFAULT_WAVEFORM,
  volume: DEFAULT_VOLUME,
};

export function isWaveform(value: unknown): value is Waveform {
  return typeof value === 'string' && (WAVEFORMS as readonly string[]).includes(value);
}

/**
 * Settings from the address (`?f=1000&w=square&v=0.35`), so a tone can be shared as a link.
 * A missing value is the default; a value out of range also falls back to the default and is
 * named in `invalid`, so the page can show the spec's error for it.
 */
export function parseToneParams(search: string | URLSearchParams): { settings: ToneSettings; invalid: Array<'f' | 'w' | 'v'> } {
  const q = typeof search === 'string' ? new URLSearchParams(search) : search;
  const settings = { ...DEFAULT_SETTINGS };
  const invalid: Array<'f' | 'w' | 'v'> = [];
  const f = q.get('f');
  if (f !== null) {
    const value = parseFrequency(f);
    if (value === null) invalid.push('f');
    else settings.frequency = value;
  }
  const w = q.get('w');
  if (w !== null) {
    if (isWaveform(w)) settings.waveform = w;
    else invalid.push('w');
  }
  const v = q.get('v');
  if (v !== null) {
    const value = v.trim() === '' ? NaN : Number(v);
    if (Number.isFinite(value) && value >= 0 && value <= 1) settings.volume = Math.round(value * 10000) / 10000;
    else invalid.push('v');
  }
  return { settings, invalid };
}

/** The address form of the settings (the inverse of parseToneParams). */
export function toneParams(settings: ToneSettings): URLSearchParams {
  return new URLSearchParams({ f: String(roundFrequency(settings.frequency)), w: settings.waveform, v: String(settings.volume) });
}

/**
 * Spec §4 loop: the tone plays `cycles` times, once every `intervalMs`. Each step gives when a
 * cycle starts and how many cycles remain including it (what the stop button shows); `endAt`
 * is when looping ends.
 */
export function loopSchedule(cycles = LOOP_CYCLES, intervalMs = LOOP_INTERVAL_MS): { steps: Array<{ at: number; remaining: number }>; endAt: number } {
  const steps = Array.from({ length: cycles }, (_, i) => ({ at: i * intervalMs, remaining: cycles - i }));
  return { steps, endAt: cycles * intervalMs };
}

export type SweepMode = 'linear' | 'log';

/** The frequency of a sweep from `from` to `to` over `seconds`, at time `t` (clamped to the sweep). */
export function sweepFrequencyAt(t: number, from: number, to: number, seconds: number, mode: SweepMode): number {
  const x = seconds <= 0 ? 1 : Math.min(1, Math.max(0, t / seconds));
  if (mode === 'log') return from * (to / from) ** x;
  return from + (to - from) * x;
}

/** The frequency curve of a sweep, `pointsPerSecond` samples (at least 2), for AudioParam.setValueCurveAtTime. */
export function sweepCurve(from: number, to: number, seconds: number, mode: SweepMode, pointsPerSecond = 100): Float32Array {
  const n = Math.max(2, Math.min(10000, Math.ceil(seconds * pointsPerSecond) + 1));
  const curve = new Float32Array(n);
  for (let i = 0; i < n; i++) curve[i] = sweepFrequencyAt((i / (n - 1)) * seconds, from, to, seconds, mode);
  return curve;
}

/** Sweep limits: the ends are tone frequencies; the duration 0.1–600 s. */
export const SWEEP_MIN_SECONDS = 0.1;
export const SWEEP_MAX_SECONDS = 600;
export function parseSweepSeconds(input: string): number | null {
  const value = Number(input.trim().replace(',', '.'));
  if (input.trim() === '' || !Number.isFinite(value) || value < SWEEP_MIN_SECONDS || value > SWEEP_MAX_SECONDS) return null;
  return value;
}

export type NoiseColor = 'white' | 'pink' | 'brown';
export const NOISE_COLORS: readonly NoiseColor[] = ['white', 'pink', 'brown'];

/**
 * Fills `out` with noise of the given colour in −1…1. White: independent samples. Pink (−3 dB
 * per octave): Paul Kellet's economy filter over white. Brown (−6 dB per octave): leaky
 * integrated white. `random` is injectable so tests are deterministic.
 */
export function fillNoise(out: Float32Array, color: NoiseColor, random: () => number = Math.random): Float32Array {
  let b0 = 0, b1 = 0, b2 = 0, last = 0;
  for (let i = 0; i < out.length; i++) {
    const white = random() * 2 - 1;
    if (color === 'white') {
      out[i] = white;
    } else if (color === 'pink') {
      b0 = 0.99765 * b0 + white * 0.099046;
      b1 = 0.963 * b1 + white * 0.2965164;
      b2 = 0.57 * b2 + white * 1.0526913;
      out[i] = (b0 + b1 + b2 + white * 0.1848) * 0.11;
    } else {
      last = (last + 0.02 * white) / 1.02;
      out[i] = last * 3.5;
    }
    if (out[i] > 1) out[i] = 1;
    else if (out[i] < -1) out[i] = -1;
  }
  return out;
}
