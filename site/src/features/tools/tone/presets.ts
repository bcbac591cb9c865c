// Spec §9 preset categories and their frequencies (Hz). "very-low 25-40: 25, 28-35, 40" is read
// literally: every whole hertz from 28 to 35. The custom category starts empty; frequencies
// played from the custom modal are added to it (isCustom).

export type PresetCategoryId =
  | 'ultraLow'
  | 'veryLow'
  | 'low'
  | 'midLow'
  | 'mid'
  | 'midHigh'
  | 'high'
  | 'veryHigh'
  | 'custom';

export interface Preset {
  /** Unique across categories: "<category>-<frequency>". */
  id: string;
  frequency: number;
  category: PresetCategoryId;
  isCustom: boolean;
}

export interface PresetCategory {
  id: PresetCategoryId;
  presets: Preset[];
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

const FREQUENCIES: Array<[PresetCategoryId, number[]]> = [
  ['ultraLow', [1, 5, 10, 15, 20]],
  ['veryLow', [25, ...range(28, 35), 40]],
  ['low', [45, 50, 55, 60, 65, 80]],
  ['midLow', [100, 125, 160, 200]],
  ['mid', [250, 320, 400, 500]],
  ['midHigh', [630, 800, 1000, 1250, 1600, 2000]],
  ['high', [2500, 3150, 4000, 5000, 6300, 8000]],
  ['veryHigh', [10000, 12500, 16000, 20000, 21000]],
  ['custom', []],
];

export function makePreset(category: PresetCategoryId, frequency: number): Preset {
  return { id: `${category}-${frequency}`, frequency, category, isCustom: category === 'custom' };
}

export const PRESET_CATEGORIES: readonly PresetCategory[] = FREQUENCIES.map(([id, list]) => ({
  id,
  presets: list.map((f) => makePreset(id, f)),
}));

/** Adds a custom frequency to the custom list (once; newest first). */
export function addCustomPreset(list: Preset[], frequency: number): Preset[] {
  if (list.some((p) => p.frequency === frequency)) return list;
  return [makePreset('custom', frequency), ...list];
}
