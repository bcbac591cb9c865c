import { describe, expect, it } from 'vitest';
import { defaultMirrored, previewScale } from './view';

describe('defaultMirrored', () => {
  it.each([
    ['user', null, true],
    ['environment', 'user', false],
    ['user', 'environment', true],
    [undefined, 'user', true],
    [undefined, 'environment', false],
    [undefined, null, true],
    ['', 'environment', false],
  ] as const)('reported %s, requested %s → %s', (reported, requested, want) => {
    expect(defaultMirrored(reported, requested)).toBe(want);
  });
});

describe('previewScale', () => {
  it('shrinks a sideways picture to fit, leaves upright ones', () => {
    expect(previewScale(16 / 9, 0)).toBe(1);
    expect(previewScale(16 / 9, 180)).toBe(1);
    expect(previewScale(16 / 9, 90)).toBeCloseTo(9 / 16, 10);
    expect(previewScale(9 / 16, 270)).toBeCloseTo(9 / 16, 10);
    expect(previewScale(0, 90)).toBe(1);
  });
});
