import { describe, expect, it } from 'vitest';
import {
  DBFS_FLOOR,
  PEAK_HOLD_MS,
  barHeights,
  clampDelay,
  formatDbfs,
  formatPercent,
  clipWarning,
  isClipping,
  levelPercent,
  logSpectrumBars,
  nextPeakHold,
  noiseAverage,
  peak,
  recordingFileName,
  rms,
  toDbfs,
} from './audioMath';

describe('rms and peak', () => {
  it('is 0 for silence and an empty block', () => {
    expect(rms([])).toBe(0);
    expect(rms([0, 0, 0])).toBe(0);
    expect(peak([])).toBe(0);
  });
  it('gives 1/√2 for a full-scale sine and its magnitude peak', () => {
    const sine = Array.from({ length: 1000 }, (_, i) => Math.sin((2 * Math.PI * i) / 100));
    expect(rms(sine)).toBeCloseTo(Math.SQRT1_2, 3);
    expect(peak([0.1, -0.7, 0.3])).toBe(0.7);
  });
});

describe('toDbfs', () => {
  it.each([
    [1, 0],
    [0.5, -6.0206],
    [0.1, -20],
    [0.001, -60],
  ])('%f → %f dBFS', (amp, db) => expect(toDbfs(amp)).toBeCloseTo(db, 3));
  it('clamps silence, negatives and NaN to the floor', () => {
    expect(toDbfs(0)).toBe(DBFS_FLOOR);
    expect(toDbfs(-1)).toBe(DBFS_FLOOR);
    expect(toDbfs(Number.NaN)).toBe(DBFS_FLOOR);
    expect(toDbfs(1e-9)).toBe(DBFS_FLOOR);
  });
});

describe('formatting', () => {
  it('prints percent with exactly two decimals', () => {
    expect(formatPercent(3.5)).toBe('3.50%');
    expect(formatPercent(0)).toBe('0.00%');
    expect(formatPercent(12.345)).toBe('12.35%');
    expect(formatPercent(Number.NaN)).toBe('0.00%');
    expect(formatPercent(100)).toBe('100.00%');
  });
  it('writes the reader\'s decimal comma', () => {
    expect(formatPercent(50, 'uk')).toBe('50,00%');
    expect(formatPercent(3.5, 'ru')).toBe('3,50%');
    expect(formatDbfs(-6.0206, 'uk')).toBe('−6,0 dBFS');
    expect(formatDbfs(-0.01, 'en')).toBe('0.0 dBFS');
  });
  it('prints dBFS with one decimal and −∞ for the floor', () => {
    expect(formatDbfs(-6.0206)).toBe('−6.0 dBFS');
    expect(formatDbfs(0)).toBe('0.0 dBFS');
    expect(formatDbfs(DBFS_FLOOR)).toBe('−∞ dBFS');
  });
  it('keeps levels within 0–100 %', () => {
    expect(levelPercent(0.035)).toBeCloseTo(3.5);
    expect(levelPercent(2)).toBe(100);
    expect(levelPercent(-1)).toBe(0);
  });
});

describe('noiseAverage', () => {
  it('averages the sampled levels into percent and dBFS', () => {
    const r = noiseAverage([0.01, 0.02, 0.03]);
    expect(r.percent).toBeCloseTo(2);
    expect(r.dbfs).toBeCloseTo(20 * Math.log10(0.02), 6);
    expect(r.samples).toBe(3);
    expect(formatPercent(r.percent)).toBe('2.00%');
  });
  it('takes 30 samples in 3 s at 100 ms', () => {
    expect(noiseAverage(Array(30).fill(0.5)).samples).toBe(30);
  });
  it('reports 0 % and the floor without samples or in silence', () => {
    expect(noiseAverage([])).toEqual({ percent: 0, dbfs: DBFS_FLOOR, samples: 0 });
    expect(noiseAverage([0, 0]).dbfs).toBe(DBFS_FLOOR);
  });
});

describe('clipping and peak hold (what the fake microphone never produces)', () => {
  it('flags a block that reaches full scale, either polarity', () => {
    expect(isClipping([0.2, 0.5, -0.3])).toBe(false);
    expect(isClipping([0.2, 1, 0])).toBe(true);
    expect(isClipping([0.2, -0.9995])).toBe(true);
    expect(isClipping([0.998])).toBe(false);
    expect(isClipping([])).toBe(false);
  });
  it('holds a peak, then lets it fall at 20 dB/s, never below the current level', () => {
    let h = nextPeakHold(null, -10, 0);
    expect(h).toEqual({ db: -10, at: 0 });
    h = nextPeakHold(h, -30, 1000);
    expect(h.db).toBe(-10); // held
    h = nextPeakHold(h, -30, PEAK_HOLD_MS);
    expect(h.db).toBe(-10); // still held at the edge
    h = nextPeakHold(h, -30, PEAK_HOLD_MS + 500);
    expect(h.db).toBeCloseTo(-20); // fell 10 dB in 0.5 s
    h = nextPeakHold(h, -30, PEAK_HOLD_MS + 2000);
    expect(h.db).toBe(-30); // reached the current level
    expect(nextPeakHold({ db: -20, at: 0 }, -5, 100)).toEqual({ db: -5, at: 100 }); // a higher peak replaces it
  });
});

describe('clampDelay', () => {
  it.each([
    [1, 1],
    [8, 8],
    [0, 1],
    [-3, 1],
    [9, 8],
    [100, 8],
    [3.4, 3],
    ['5', 5],
    ['abc', 1],
    [Number.NaN, 1],
    [undefined, 1],
  ])('%s → %d', (input, out) => expect(clampDelay(input)).toBe(out));
});

describe('logSpectrumBars', () => {
  const bars = logSpectrumBars(48, 48000, 2048);
  it('makes the asked number of bars over the bins without gaps, skipping DC', () => {
    expect(bars).toHaveLength(48);
    expect(bars[0].from).toBeGreaterThanOrEqual(1);
    for (let i = 1; i < bars.length; i++) expect(bars[i].from).toBe(bars[i - 1].to);
    expect(bars.at(-1)!.to).toBe(1024);
    bars.forEach((b) => expect(b.to).toBeGreaterThan(b.from));
  });
  it('spaces centres logarithmically: equal frequency ratios between neighbours', () => {
    const r1 = bars[21].hz / bars[20].hz;
    const r2 = bars[41].hz / bars[40].hz;
    expect(r1).toBeCloseTo(r2, 6);
    expect(bars[0].hz).toBeGreaterThan(20);
    expect(bars.at(-1)!.hz).toBeLessThan(24000);
  });
  it('gives high bars many bins and low bars few', () => {
    expect(bars.at(-1)!.to - bars.at(-1)!.from).toBeGreaterThan(bars[0].to - bars[0].from);
  });
  it('puts a 1 kHz bin into the bar whose range holds 1 kHz', () => {
    const bin = Math.round(1000 / (24000 / 1024));
    const bar = bars.find((b) => bin >= b.from && bin < b.to)!;
    expect(bar.hz).toBeGreaterThan(700);
    expect(bar.hz).toBeLessThan(1400);
  });
  it('averages bin magnitudes into 0…1 heights', () => {
    const mags = new Uint8Array(1024);
    mags.fill(255, 1, 3);
    const h = barHeights(mags, [
      { from: 1, to: 3, hz: 0 },
      { from: 3, to: 5, hz: 0 },
      { from: 2, to: 4, hz: 0 },
    ]);
    expect(h).toEqual([1, 0, 0.5]);
  });
});

describe('recordingFileName', () => {
  it('is recording_<timestamp>.webm', () => {
    expect(recordingFileName(1763880000123)).toBe('recording_1763880000123.webm');
    expect(recordingFileName(1763880000123)).toMatch(/^recording_\d+\.webm$/);
  });
});

describe('clipWarning', () => {
  const SHOW = 2000;
  it.each([
    ['clipped just now, loud', 1000, 1500, -0.5, true],
    ['clipped a second ago, still speaking', 1000, 2000, -20, true],
    ['clipped, now silence (−∞ dBFS): no warning', 1000, 1500, DBFS_FLOOR, false],
    ['clipped long ago', 1000, 4000, -3, false],
    ['never clipped', null, 1500, -1, false],
  ] as const)('%s', (_name, clipAt, now, level, want) => {
    expect(clipWarning(clipAt, now, level, SHOW)).toBe(want);
  });
});
