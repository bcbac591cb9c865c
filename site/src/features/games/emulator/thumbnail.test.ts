import { describe, expect, it } from 'vitest';
import { thumbSize } from './thumbnail';

describe('thumbSize', () => {
  it.each([
    [256, 240, 160, 160, 150],
    [320, 224, 160, 160, 112],
    [160, 144, 160, 160, 144],
    [100, 50, 160, 100, 50],
    [0, 240, 160, 1, 1],
    [4000, 1, 160, 160, 1],
  ])('%i×%i at most %i wide → %i×%i', (w, h, max, width, height) => {
    expect(thumbSize(w, h, max)).toEqual({ width, height });
  });
});
