import { describe, expect, it } from 'vitest';
import {
  bandFor,
  fillNoise,
  formatCents,
  formatFrequency,
  gainToPercent,
  loopSchedule,
  noteFor,
  nudgeFrequency,
  octaveStep,
  parseFrequency,
  parseSweepSeconds,
  parseToneParams,
  percentToGain,
  semitoneStep,
  sweepCurve,
  sweepFrequencyAt,
  toneParams,
} from './tone';

describe('bandFor: up to 300 low, up to 800 mid, else high', () => {
  it.each([
    [1, 'low'],
    [300, 'low'],
    [300.01, 'mid'],
    [301, 'mid'],
    [800, 'mid'],
    [800.5, 'high'],
    [801, 'high'],
    [21000, 'high'],
  ])('%s Hz → %s', (f, band) => expect(bandFor(f)).toBe(band));
});

describe('formatFrequency: ≥ 1000 Hz in kHz with one decimal', () => {
  it.each([
    [440, '440', 'Hz'],
    [27.5, '27.5', 'Hz'],
    [440.123, '440.12', 'Hz'],
    [999.99, '999.99', 'Hz'],
    [1000, '1.0', 'kHz'],
    [1250, '1.3', 'kHz'],
    [12500, '12.5', 'kHz'],
    [21000, '21.0', 'kHz'],
  ])('%s → %s %s', (f, value, unit) => expect(formatFrequency(f)).toEqual({ value, unit }));
  it('writes the reader\'s decimal comma', () => {
    expect(formatFrequency(27.5, 'uk')).toEqual({ value: '27,5', unit: 'Hz' });
    expect(formatFrequency(12500, 'ru')).toEqual({ value: '12,5', unit: 'kHz' });
  });
});

describe('noteFor (A4 = 440 Hz)', () => {
  it.each([
    [440, 'A4', 0],
    [261.63, 'C4', 0],
    [880, 'A5', 0],
    [27.5, 'A0', 0],
    [445, 'A4', 20],
    [435, 'A4', -20],
    [466.16, 'A♯4', 0],
    [1000, 'B5', 21],
    [16.35, 'C0', 0],
  ])('%s Hz → %s %s cents', (f, label, cents) => {
    const n = noteFor(f);
    expect(n.label).toBe(label);
    expect(n.cents).toBe(cents);
  });
  it('keeps the cents within ±50', () => {
    for (let f = 20; f < 21000; f *= 1.0137) expect(Math.abs(noteFor(f).cents)).toBeLessThanOrEqual(50);
  });
  it('formats cents with a sign', () => {
    expect([formatCents(5), formatCents(-12), formatCents(0)]).toEqual(['+5', '−12', '0']);
  });
});

describe('parseFrequency: a number from 1 to 21000', () => {
  it.each([
    ['440', 440],
    ['1', 1],
    ['21000', 21000],
    ['1000.5', 1000.5],
    ['123,45', 123.45],
    ['440.126', 440.13],
    [' 50 ', 50],
    [1000, 1000],
  ])('accepts %j → %s', (input, value) => expect(parseFrequency(input)).toBe(value));
  it.each([['30000'], ['0'], ['0.99'], ['21000.01'], ['-5'], [''], ['abc'], ['1e9'], ['NaN'], ['Infinity'], ['12abc'], [null], [undefined]])(
    'rejects %j',
    (input) => expect(parseFrequency(input)).toBeNull(),
  );
});

describe('keyboard and octave steps', () => {
  it('nudges ±1, ±10 with Shift, ±0.01 with Ctrl/⌘', () => {
    expect(nudgeFrequency(440, 1)).toBe(441);
    expect(nudgeFrequency(440, -1)).toBe(439);
    expect(nudgeFrequency(440, 1, { shift: true })).toBe(450);
    expect(nudgeFrequency(440, -1, { shift: true })).toBe(430);
    expect(nudgeFrequency(440, 1, { fine: true })).toBe(440.01);
    expect(nudgeFrequency(440.01, -1, { fine: true })).toBe(440);
  });
  it('keeps nudges in range', () => {
    expect(nudgeFrequency(1, -1)).toBe(1);
    expect(nudgeFrequency(20995, 1, { shift: true })).toBe(21000);
  });
  it('steps one semitone up and down', () => {
    expect(semitoneStep(440, 1)).toBe(466.16);
    expect(semitoneStep(440, -1)).toBe(415.3);
    expect(semitoneStep(440, 12)).toBe(880);
    expect(semitoneStep(21000, 1)).toBe(21000);
    expect(semitoneStep(1, -1)).toBe(1);
  });
  it('halves and doubles within range', () => {
    expect(octaveStep(440, 1)).toBe(880);
    expect(octaveStep(440, -1)).toBe(220);
    expect(octaveStep(15000, 1)).toBe(21000);
    expect(octaveStep(1.5, -1)).toBe(1);
  });
});

describe('volume percent ↔ gain', () => {
  it.each([
    [0, 0],
    [50, 0.5],
    [35.55, 0.3555],
    [100, 1],
    [150, 1],
    [-3, 0],
  ])('%s %% → %s', (p, g) => expect(percentToGain(p)).toBe(g));
  it('converts back', () => expect(gainToPercent(0.3555)).toBe(35.55));
});

describe('parseToneParams (settings in the address)', () => {
  it('reads f, w and v', () => {
    expect(parseToneParams('?f=1000&w=square&v=0.35')).toEqual({ settings: { frequency: 1000, waveform: 'square', volume: 0.35 }, invalid: [] });
  });
  it('uses the defaults when nothing is given', () => {
    expect(parseToneParams('')).toEqual({ settings: { frequency: 440, waveform: 'sine', volume: 0.5 }, invalid: [] });
  });
  it.each([
    ['?f=30000', ['f']],
    ['?f=0', ['f']],
    ['?f=abc', ['f']],
    ['?w=noise', ['w']],
    ['?v=1.5', ['v']],
    ['?v=-0.1', ['v']],
    ['?v=', ['v']],
    ['?f=0&w=x&v=2', ['f', 'w', 'v']],
  ])('%s falls back to the defaults and names %j', (search, invalid) => {
    const r = parseToneParams(search);
    expect(r.invalid).toEqual(invalid);
    expect(r.settings).toEqual({ frequency: 440, waveform: 'sine', volume: 0.5 });
  });
  it('keeps the valid values beside an invalid one', () => {
    expect(parseToneParams('?f=99999&w=triangle&v=0.2').settings).toEqual({ frequency: 440, waveform: 'triangle', volume: 0.2 });
  });
  it('round-trips through toneParams', () => {
    const s = { frequency: 1234.56, waveform: 'sawtooth' as const, volume: 0.3555 };
    expect(toneParams(s).toString()).toBe('f=1234.56&w=sawtooth&v=0.3555');
    expect(parseToneParams(toneParams(s)).settings).toEqual(s);
  });
});

describe('loopSchedule: 10 cycles every 200 ms', () => {
  it('starts a cycle every 200 ms, counting the cycles left, and ends after the tenth', () => {
    const { steps, endAt } = loopSchedule();
    expect(steps).toHaveLength(10);
    expect(steps.map((s) => s.at)).toEqual([0, 200, 400, 600, 800, 1000, 1200, 1400, 1600, 1800]);
    expect(steps.map((s) => s.remaining)).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect(endAt).toBe(2000);
  });
  it('takes other counts and intervals', () => {
    expect(loopSchedule(2, 50)).toEqual({ steps: [{ at: 0, remaining: 2 }, { at: 50, remaining: 1 }], endAt: 100 });
  });
});

describe('sweep', () => {
  it('moves linearly', () => {
    expect(sweepFrequencyAt(0, 100, 1100, 10, 'linear')).toBe(100);
    expect(sweepFrequencyAt(5, 100, 1100, 10, 'linear')).toBe(600);
    expect(sweepFrequencyAt(10, 100, 1100, 10, 'linear')).toBe(1100);
    expect(sweepFrequencyAt(20, 100, 1100, 10, 'linear')).toBe(1100);
    expect(sweepFrequencyAt(-1, 100, 1100, 10, 'linear')).toBe(100);
  });
  it('moves logarithmically: equal octaves in equal times', () => {
    expect(sweepFrequencyAt(0, 100, 1600, 4, 'log')).toBeCloseTo(100);
    expect(sweepFrequencyAt(1, 100, 1600, 4, 'log')).toBeCloseTo(200);
    expect(sweepFrequencyAt(2, 100, 1600, 4, 'log')).toBeCloseTo(400);
    expect(sweepFrequencyAt(4, 100, 1600, 4, 'log')).toBeCloseTo(1600);
  });
  it('sweeps down as well', () => {
    expect(sweepFrequencyAt(1, 1000, 250, 2, 'log')).toBeCloseTo(500);
    expect(sweepFrequencyAt(1, 1000, 250, 2, 'linear')).toBeCloseTo(625);
  });
  it('samples a curve from A to B', () => {
    const c = sweepCurve(100, 1600, 4, 'log', 10);
    expect(c.length).toBe(41);
    expect(c[0]).toBeCloseTo(100);
    expect(c[10]).toBeCloseTo(200, 3);
    expect(c[40]).toBeCloseTo(1600, 2);
    for (let i = 1; i < c.length; i++) expect(c[i]).toBeGreaterThan(c[i - 1]);
  });
  it('validates the duration', () => {
    expect(parseSweepSeconds('5')).toBe(5);
    expect(parseSweepSeconds('0.5')).toBe(0.5);
    expect(parseSweepSeconds('0')).toBeNull();
    expect(parseSweepSeconds('601')).toBeNull();
    expect(parseSweepSeconds('')).toBeNull();
    expect(parseSweepSeconds('x')).toBeNull();
  });
});

describe('fillNoise', () => {
  // a small deterministic generator (mulberry32)
  const seeded = (seed: number) => () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  /** Mean absolute difference of neighbouring samples: high for white, lower for pink, lowest for brown. */
  const roughness = (a: Float32Array) => {
    let s = 0;
    for (let i = 1; i < a.length; i++) s += Math.abs(a[i] - a[i - 1]);
    return s / (a.length - 1);
  };
  it.each(['white', 'pink', 'brown'] as const)('%s stays within −1…1 and is not silent', (color) => {
    const a = fillNoise(new Float32Array(44100), color, seeded(7));
    expect(Math.max(...a)).toBeLessThanOrEqual(1);
    expect(Math.min(...a)).toBeGreaterThanOrEqual(-1);
    const rms = Math.sqrt(a.reduce((s, x) => s + x * x, 0) / a.length);
    expect(rms).toBeGreaterThan(0.02);
  });
  it('has less high-frequency content the redder it is', () => {
    const [w, p, b] = (['white', 'pink', 'brown'] as const).map((c) => {
      const a = fillNoise(new Float32Array(44100), c, seeded(3));
      const rms = Math.sqrt(a.reduce((s, x) => s + x * x, 0) / a.length);
      return roughness(a) / rms;
    });
    expect(w).toBeGreaterThan(p);
    expect(p).toBeGreaterThan(b);
  });
});
