import { describe, expect, it } from 'vitest';
import { nextRotation, photoFileName, rotatedSize, type Rotation } from './photo';

describe('photoFileName', () => {
  it('is photo_<timestamp>.jpg', () => {
    expect(photoFileName(1732339200123)).toBe('photo_1732339200123.jpg');
    expect(photoFileName(5.9)).toBe('photo_5.jpg');
  });
});

describe('rotation', () => {
  it('cycles 0 → 90 → 180 → 270 → 0', () => {
    const seen: Rotation[] = [0];
    for (let i = 0; i < 4; i++) seen.push(nextRotation(seen[seen.length - 1]));
    expect(seen).toEqual([0, 90, 180, 270, 0]);
  });
  it('swaps the sides at 90 and 270 only', () => {
    expect(rotatedSize(1280, 720, 0)).toEqual({ width: 1280, height: 720 });
    expect(rotatedSize(1280, 720, 90)).toEqual({ width: 720, height: 1280 });
    expect(rotatedSize(1280, 720, 180)).toEqual({ width: 1280, height: 720 });
    expect(rotatedSize(1280, 720, 270)).toEqual({ width: 720, height: 1280 });
  });
});
