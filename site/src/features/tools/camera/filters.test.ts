import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FILTERS,
  applyFilters,
  clampFilter,
  convolve3x3,
  cssFilter,
  isDefaultFilters,
  isIdentityKernel,
  sharpenKernel,
  toneTable,
} from './filters';

/** A width×height RGBA image whose grey level at (x, y) is given by fn. */
function grey(width: number, height: number, fn: (x: number, y: number) => number): Uint8ClampedArray {
  const px = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      px[i] = px[i + 1] = px[i + 2] = fn(x, y);
      px[i + 3] = 255;
    }
  return px;
}
const at = (px: Uint8ClampedArray, width: number, x: number, y: number) => px[(y * width + x) * 4];

describe('clampFilter', () => {
  it.each([
    [0, 0],
    [200, 200],
    [100, 100],
    [-5, 0],
    [250, 200],
    [99.6, 100],
    [12.4, 12],
    [Number.NaN, 100],
    [Number.POSITIVE_INFINITY, 100],
  ])('%s → %s', (v, want) => expect(clampFilter(v)).toBe(want));
});

describe('defaults and CSS', () => {
  it('starts at 100 for all three', () => {
    expect(DEFAULT_FILTERS).toEqual({ brightness: 100, contrast: 100, sharpness: 100 });
    expect(isDefaultFilters(DEFAULT_FILTERS)).toBe(true);
    expect(isDefaultFilters({ ...DEFAULT_FILTERS, sharpness: 101 })).toBe(false);
  });
  it('writes brightness and contrast as CSS factors', () => {
    expect(cssFilter({ brightness: 150, contrast: 50, sharpness: 100 })).toBe('brightness(1.5) contrast(0.5)');
  });
});

describe('sharpenKernel', () => {
  it('is the identity at 100', () => {
    expect(isIdentityKernel(sharpenKernel(100))).toBe(true);
  });
  it.each([0, 50, 100, 150, 200])('sums to 1 at %s', (s) => {
    expect(sharpenKernel(s).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 10);
  });
  it('is a box blur at 0 and an unsharp mask above 100', () => {
    for (const v of sharpenKernel(0)) expect(v).toBeCloseTo(1 / 9, 10);
    const k = sharpenKernel(200);
    expect(k[4]).toBeCloseTo(1 + 16 / 9, 10);
    expect(k[0]).toBeCloseTo(-2 / 9, 10);
  });
});

describe('toneTable', () => {
  it('is the identity at 100/100', () => {
    const t = toneTable(100, 100);
    for (let v = 0; v < 256; v++) expect(t[v]).toBe(v);
  });
  it('brightness 0 is black, 200 doubles and clips', () => {
    expect(toneTable(0, 100)[200]).toBe(0);
    expect(toneTable(200, 100)[60]).toBe(120);
    expect(toneTable(200, 100)[200]).toBe(255);
  });
  it('contrast 0 is mid grey everywhere, 200 spreads around the middle', () => {
    expect(toneTable(100, 0)[10]).toBe(128);
    expect(toneTable(100, 0)[250]).toBe(128);
    expect(toneTable(100, 200)[100]).toBe(72) // 72.5, rounded half to even as Uint8ClampedArray does;
    expect(toneTable(100, 200)[160]).toBe(192);
  });
});

describe('convolve3x3 and applyFilters', () => {
  // a vertical edge: dark on the left, light on the right
  const W = 6;
  const H = 4;
  const edge = grey(W, H, (x) => (x < 3 ? 80 : 160));

  it('sharpening raises the contrast at an edge and leaves flat areas alone', () => {
    const out = applyFilters(edge, W, H, { brightness: 100, contrast: 100, sharpness: 200 });
    expect(at(out, W, 2, 1)).toBeLessThan(80); // the dark side gets darker next to the edge
    expect(at(out, W, 3, 1)).toBeGreaterThan(160); // the light side lighter
    expect(at(out, W, 0, 1)).toBe(80); // far from the edge nothing changes
    expect(at(out, W, 5, 1)).toBe(160);
  });

  it('sharpness below 100 blurs the edge', () => {
    const out = applyFilters(edge, W, H, { brightness: 100, contrast: 100, sharpness: 0 });
    expect(at(out, W, 2, 1)).toBeGreaterThan(80);
    expect(at(out, W, 3, 1)).toBeLessThan(160);
  });

  it('keeps alpha and repeats the border pixels', () => {
    const px = grey(3, 3, (x, y) => (x === 1 && y === 1 ? 255 : 0));
    px[3] = 7;
    const out = convolve3x3(px, 3, 3, sharpenKernel(0));
    expect(out[3]).toBe(7);
    expect(at(out, 3, 0, 0)).toBe(28); // 255 / 9, rounded by the clamped array
  });

  it('the default settings return the same pixels', () => {
    expect(Array.from(applyFilters(edge, W, H, DEFAULT_FILTERS))).toEqual(Array.from(edge));
  });

  it('brightness changes every pixel', () => {
    const out = applyFilters(edge, W, H, { brightness: 150, contrast: 100, sharpness: 100 });
    expect(at(out, W, 0, 0)).toBe(120);
    expect(at(out, W, 5, 0)).toBe(240);
  });
});
