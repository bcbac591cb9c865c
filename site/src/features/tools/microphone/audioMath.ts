// Pure arithmetic of the microphone page: levels, dBFS, noise averages, peak hold, clipping,
// the spectrum's logarithmic bars and the spec's constants. Kept free of Web Audio objects so
// every rule is checked by Vitest — including those the fake test microphone cannot exercise
// (a real clipping signal, a real peak decay).
import { formatNumber } from '../../../lib/numberFormat';

/** Analyser window. */
export const FFT_SIZE = 2048;
/** Noise measurement: one sample every 100 ms for 3 s per microphone. */
export const NOISE_SAMPLE_INTERVAL_MS = 100;
export const NOISE_DURATION_MS = 3000;
/** Delayed playback: 1–8 s in whole seconds, default 1; the delay line holds at most 10 s. */
export const DELAY_MIN_S = 1;
export const DELAY_MAX_S = 8;
export const DELAY_DEFAULT_S = 1;
export const MAX_DELAY_BUFFER_S = 10;
/** The quietest level a meter shows; silence (−∞ dBFS) is drawn as this. */
export const DBFS_FLOOR = -100;
/** A sample at or above this magnitude is treated as clipped (full scale after float rounding). */
export const CLIP_THRESHOLD = 0.999;
/** How long a peak is held before it falls, and how fast it falls afterwards. */
export const PEAK_HOLD_MS = 1500;
export const PEAK_FALL_DB_PER_S = 20;

/** Root mean square of a block of float samples (−1…1); 0 for an empty block. */
export function rms(samples: ArrayLike<number>): number {
  if (samples.length === 0) return 0;
  let sum = 0;
  for (let i = 0; i < samples.length; i++) sum += samples[i] * samples[i];
  return Math.sqrt(sum / samples.length);
}

/** Largest magnitude in a block of float samples. */
export function peak(samples: ArrayLike<number>): number {
  let max = 0;
  for (let i = 0; i < samples.length; i++) {
    const v = Math.abs(samples[i]);
    if (v > max) max = v;
  }
  return max;
}

/** Linear amplitude (0…1, full scale = 1) to dBFS, never below DBFS_FLOOR (silence → floor). */
export function toDbfs(amplitude: number): number {
  if (!(amplitude > 0)) return DBFS_FLOOR;
  return Math.max(DBFS_FLOOR, 20 * Math.log10(amplitude));
}

/** A level (0…1 amplitude) as the spec's percentage, 0–100. */
export function levelPercent(amplitude: number): number {
  return Math.min(100, Math.max(0, amplitude * 100));
}

/** Percent with exactly 2 decimals in the reader's number format: "3.50%", "3,50%". */
export function formatPercent(percent: number, lang = 'en'): string {
  return `${formatNumber(percent, lang, 2)}%`;
}

/** dBFS with one decimal in the reader's number format ("−6.0", "−6,0"); the floor shows as "−∞ dBFS". */
export function formatDbfs(db: number, lang = 'en'): string {
  if (db <= DBFS_FLOOR) return '−∞ dBFS';
  const text = formatNumber(Math.abs(db), lang, 1);
  // a typographic minus, and none for a value that rounds to zero ("−0.0")
  return `${db < 0 && /[1-9]/.test(text) ? '−' : ''}${text} dBFS`;
}

/** The result of a noise measurement of one microphone: the average level of its samples. */
export interface NoiseResult {
  /** Average of the sampled levels, percent of full scale (spec: shown with 2 decimals). */
  percent: number;
  /** The same average expressed in dBFS: the microphone's noise floor. */
  dbfs: number;
  samples: number;
}

/** Averages RMS amplitudes sampled over the measurement; no samples → 0 % and the floor. */
export function noiseAverage(levels: readonly number[]): NoiseResult {
  if (levels.length === 0) return { percent: 0, dbfs: DBFS_FLOOR, samples: 0 };
  const mean = levels.reduce((a, b) => a + b, 0) / levels.length;
  return { percent: levelPercent(mean), dbfs: toDbfs(mean), samples: levels.length };
}

/** True when any sample reaches full scale: the input is clipping. */
export function isClipping(samples: ArrayLike<number>, threshold = CLIP_THRESHOLD): boolean {
  for (let i = 0; i < samples.length; i++) if (Math.abs(samples[i]) >= threshold) return true;
  return false;
}

/**
 * Whether the clipping warning shows: the input clipped within the last `showMs` and there is a
 * level now. A full-scale burst followed by silence is not clipping any more — the warning never
 * stands beside a −∞ dBFS level.
 */
export function clipWarning(clipAt: number | null, now: number, levelDb: number, showMs: number): boolean {
  return clipAt !== null && now - clipAt < showMs && levelDb > DBFS_FLOOR;
}

/** A peak-hold indicator: the highest recent peak, held for PEAK_HOLD_MS, then falling. */
export interface PeakHold {
  db: number;
  /** When the held value was set (ms clock). */
  at: number;
}

/**
 * Next state of a peak-hold marker given the current peak (dBFS) at time `now` (ms).
 * A higher peak replaces the held one; otherwise it stays for PEAK_HOLD_MS, then falls at
 * PEAK_FALL_DB_PER_S but never below the current peak.
 */
export function nextPeakHold(prev: PeakHold | null, currentDb: number, now: number): PeakHold {
  if (!prev || currentDb >= prev.db) return { db: currentDb, at: now };
  const age = now - prev.at;
  if (age <= PEAK_HOLD_MS) return prev;
  const fallen = prev.db - ((age - PEAK_HOLD_MS) / 1000) * PEAK_FALL_DB_PER_S;
  if (fallen <= currentDb) return { db: currentDb, at: now };
  return { db: fallen, at: prev.at };
}

/** Keeps a delay within the spec's 1–8 s whole seconds; anything unreadable → the default 1 s. */
export function clampDelay(seconds: unknown): number {
  const n = typeof seconds === 'string' ? Number(seconds) : typeof seconds === 'number' ? seconds : NaN;
  if (!Number.isFinite(n)) return DELAY_DEFAULT_S;
  return Math.min(DELAY_MAX_S, Math.max(DELAY_MIN_S, Math.round(n)));
}

/** A spectrum bar: the analyser bins [from, to) it averages and its centre frequency. */
export interface SpectrumBar {
  from: number;
  to: number;
  hz: number;
}

/**
 * Splits the analyser's bins into `count` bars spaced evenly on a logarithmic frequency axis
 * from `minHz` to the Nyquist frequency, so each octave gets the same width as the ear hears
 * it. Every bar covers at least one bin; bin 0 (DC) is never used.
 */
export function logSpectrumBars(count: number, sampleRate: number, fftSize = FFT_SIZE, minHz = 20): SpectrumBar[] {
  const bins = fftSize / 2;
  const nyquist = sampleRate / 2;
  const binHz = nyquist / bins;
  const lo = Math.max(minHz, binHz);
  const ratio = nyquist / lo;
  const bars: SpectrumBar[] = [];
  let prevTo = 1;
  for (let i = 0; i < count; i++) {
    const fLo = lo * Math.pow(ratio, i / count);
    const fHi = lo * Math.pow(ratio, (i + 1) / count);
    let from = Math.max(prevTo, Math.floor(fLo / binHz));
    let to = Math.min(bins, Math.ceil(fHi / binHz));
    if (from >= bins) from = bins - 1;
    if (to <= from) to = from + 1;
    bars.push({ from, to, hz: Math.sqrt(fLo * fHi) });
    prevTo = to;
  }
  return bars;
}

/** Averages the byte magnitudes (0–255) of each bar's bins into 0…1 heights. */
export function barHeights(magnitudes: ArrayLike<number>, bars: readonly SpectrumBar[]): number[] {
  return bars.map(({ from, to }) => {
    let sum = 0;
    let n = 0;
    for (let i = from; i < to && i < magnitudes.length; i++) {
      sum += magnitudes[i];
      n++;
    }
    return n ? sum / n / 255 : 0;
  });
}

/** The spec's recording file name: recording_<timestamp>.webm (timestamp in ms). */
export function recordingFileName(timestamp: number): string {
  return `recording_${timestamp}.webm`;
}
