import { describe, expect, it } from 'vitest';
import { addCustomPreset, PRESET_CATEGORIES } from './presets';

describe('preset categories', () => {
  it('has every category with the spec frequencies, custom last and empty', () => {
    const byId = Object.fromEntries(PRESET_CATEGORIES.map((c) => [c.id, c.presets.map((p) => p.frequency)]));
    expect(byId).toEqual({
      ultraLow: [1, 5, 10, 15, 20],
      veryLow: [25, 28, 29, 30, 31, 32, 33, 34, 35, 40],
      low: [45, 50, 55, 60, 65, 80],
      midLow: [100, 125, 160, 200],
      mid: [250, 320, 400, 500],
      midHigh: [630, 800, 1000, 1250, 1600, 2000],
      high: [2500, 3150, 4000, 5000, 6300, 8000],
      veryHigh: [10000, 12500, 16000, 20000, 21000],
      custom: [],
    });
    expect(PRESET_CATEGORIES.at(-1)?.id).toBe('custom');
  });

  it('gives every preset a unique id and marks none of the built-in ones custom', () => {
    const all = PRESET_CATEGORIES.flatMap((c) => c.presets);
    expect(new Set(all.map((p) => p.id)).size).toBe(all.length);
    expect(all.every((p) => !p.isCustom)).toBe(true);
  });

  it('adds a custom frequency once, newest first, marked custom', () => {
    let list = addCustomPreset([], 123.45);
    list = addCustomPreset(list, 50);
    list = addCustomPreset(list, 123.45);
    expect(list.map((p) => p.frequency)).toEqual([50, 123.45]);
    expect(list.every((p) => p.isCustom && p.category === 'custom')).toBe(true);
  });
});
