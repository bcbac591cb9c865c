// Image settings: brightness, contrast and sharpness, whole numbers 0–200,
// 100 meaning "unchanged". The live preview gets them as a CSS filter (brightness and contrast)
// plus an SVG feConvolveMatrix (sharpness); a photo gets the same three applied to its pixels
// here, so what is saved matches what is seen.

export const FILTER_MIN = 0;
export const FILTER_MAX = 200;
export const FILTER_DEFAULT = 100;

export interface Filters {
  brightness: number;
  contrast: number;
  sharpness: number;
}

export const DEFAULT_FILTERS: Filters = Object.freeze({
  brightness: FILTER_DEFAULT,
  contrast: FILTER_DEFAULT,
  sharpness: FILTER_DEFAULT,
});

/** A slider value as the spec allows it: a whole number in 0–200 (anything unreadable → 100). */
export function clampFilter(value: number): number {
  if (!Number.isFinite(value)) return FILTER_DEFAULT;
  return Math.min(FILTER_MAX, Math.max(FILTER_MIN, Math.round(value)));
}

export function isDefaultFilters(f: Filters): boolean {
  return f.brightness === FILTER_DEFAULT && f.contrast === FILTER_DEFAULT && f.sharpness === FILTER_DEFAULT;
}

/** The CSS filter for brightness and contrast (percentages, as the CSS functions take them). */
export function cssFilter(f: Filters): string {
  return `brightness(${f.brightness / 100}) contrast(${f.contrast / 100})`;
}

/**
 * The 3×3 kernel for a sharpness value: identity + m·(identity − box blur), where
 * m = 2·(s−100)/100 above 100 (an unsharp mask, up to amount 2) and (s−100)/100 below it
 * (down to a plain 3×3 box blur at 0). Its entries always sum to 1, so flat areas keep their
 * brightness; at 100 it is the identity.
 */
export function sharpenKernel(sharpness: number): number[] {
  const s = clampFilter(sharpness);
  const m = s >= FILTER_DEFAULT ? (2 * (s - FILTER_DEFAULT)) / 100 : (s - FILTER_DEFAULT) / 100;
  const edge = -m / 9;
  const centre = 1 + (8 * m) / 9;
  return [edge, edge, edge, edge, centre, edge, edge, edge, edge];
}

export function isIdentityKernel(k: readonly number[]): boolean {
  return k.every((v, i) => (i === 4 ? v === 1 : v === 0 || Object.is(v, -0)));
}

/** The brightness-then-contrast tone curve as a 256-entry table, clamped after each step as CSS does. */
export function toneTable(brightness: number, contrast: number): Uint8ClampedArray {
  const b = clampFilter(brightness) / 100;
  const c = clampFilter(contrast) / 100;
  const table = new Uint8ClampedArray(256);
  for (let v = 0; v < 256; v++) {
    const lit = Math.min(255, v * b);
    table[v] = (lit - 127.5) * c + 127.5;
  }
  return table;
}

/**
 * Convolves RGBA pixels with a 3×3 kernel (edges repeat the border pixel, alpha untouched) and
 * returns new pixels. This is the real sharpening of a photo — not a no-op.
 */
export function convolve3x3(src: Uint8ClampedArray, width: number, height: number, k: readonly number[]): Uint8ClampedArray {
  const out = new Uint8ClampedArray(src.length);
  const row = width * 4;
  for (let y = 0; y < height; y++) {
    const ym = (y > 0 ? y - 1 : 0) * row;
    const y0 = y * row;
    const yp = (y < height - 1 ? y + 1 : y) * row;
    for (let x = 0; x < width; x++) {
      const xm = (x > 0 ? x - 1 : 0) * 4;
      const x0 = x * 4;
      const xp = (x < width - 1 ? x + 1 : x) * 4;
      for (let c = 0; c < 3; c++) {
        out[y0 + x0 + c] =
          k[0] * src[ym + xm + c] + k[1] * src[ym + x0 + c] + k[2] * src[ym + xp + c] +
          k[3] * src[y0 + xm + c] + k[4] * src[y0 + x0 + c] + k[5] * src[y0 + xp + c] +
          k[6] * src[yp + xm + c] + k[7] * src[yp + x0 + c] + k[8] * src[yp + xp + c];
      }
      out[y0 + x0 + 3] = src[y0 + x0 + 3];
    }
  }
  return out;
}

/** All three settings applied to RGBA pixels, in the preview's order: brightness, contrast, sharpness. */
export function applyFilters(src: Uint8ClampedArray, width: number, height: number, f: Filters): Uint8ClampedArray {
  const table = toneTable(f.brightness, f.contrast);
  const toned = new Uint8ClampedArray(src.length);
  for (let i = 0; i < src.length; i += 4) {
    toned[i] = table[src[i]];
    toned[i + 1] = table[src[i + 1]];
    toned[i + 2] = table[src[i + 2]];
    toned[i + 3] = src[i + 3];
  }
  const kernel = sharpenKernel(f.sharpness);
  return isIdentityKernel(kernel) ? toned : convolve3x3(toned, width, height, kernel);
}
