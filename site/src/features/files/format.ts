// Size formats of the file cloud: lists in MB with two decimals, the uploader in
// binary units with a speed, the detail page in decimal units (1e3, 1e6, 1e9). Every figure is
// written in the reader's language ("1,50 МБ" in Ukrainian, "1.50 MB" in English).
import { formatNumber } from '../../lib/numberFormat';

const KiB = 1024;
const MiB = 1024 * 1024;

export interface ListUnits {
  kb: string;
  mb: string;
}
export const LIST_UNITS: ListUnits = { kb: 'KB', mb: 'MB' };

/**
 * List sizes: megabytes (2^20 bytes) with two decimals, "1.50 MB"; a file under 0.01 MB in
 * kilobytes (2^10 bytes), "1.90 KB", so a small file never reads "0.00 MB".
 */
export function formatMB(bytes: number, units: ListUnits = LIST_UNITS, lang = 'en'): string {
  const b = Math.max(0, bytes);
  if (b < 0.01 * MiB) return `${formatNumber(b / KiB, lang, 2)} ${units.kb}`;
  return `${formatNumber(b / MiB, lang, 2)} ${units.mb}`;
}

/** Uploader units (binary steps of 1024); the page passes translated ones. */
export type BinaryUnits = readonly [string, string, string, string, string];
export const BINARY_UNITS: BinaryUnits = ['B', 'KB', 'MB', 'GB', 'TB'];

/**
 * Scales bytes by step through units, two decimals above the first unit. A value that rounds up
 * to a whole step moves to the next unit, so 999 999 bytes read "1.00 MB", never "1000.00 KB".
 */
function scale(bytes: number, step: number, units: readonly string[], lang: string): string {
  let v = Math.max(0, bytes);
  let i = 0;
  while (i < units.length - 1 && (i === 0 ? v >= step : Number(v.toFixed(2)) >= step)) {
    v /= step;
    i++;
  }
  return i === 0 ? `${formatNumber(Math.round(v), lang)} ${units[0]}` : `${formatNumber(v, lang, 2)} ${units[i]}`;
}

/** Uploader sizes in binary steps of 1024: "512 B", "1.50 KB", "3.20 MB". */
export function formatBinary(bytes: number, units: BinaryUnits = BINARY_UNITS, lang = 'en'): string {
  return scale(bytes, 1024, units, lang);
}

/** Upload speed in binary units per second ("/s" or its translation). */
export function formatSpeed(bytesPerSecond: number, units: BinaryUnits = BINARY_UNITS, perSecond = '/s', lang = 'en'): string {
  return `${formatBinary(bytesPerSecond, units, lang)}${perSecond}`;
}

export interface DecimalUnits {
  bytes: string;
  kb: string;
  mb: string;
  gb: string;
}

export const UK_DECIMAL_UNITS: DecimalUnits = { bytes: 'байт', kb: 'КБ', mb: 'МБ', gb: 'ГБ' };

/** Detail-page size: bytes below 1000, then КБ/МБ/ГБ in steps of 1000, two decimals. */
export function formatDecimal(bytes: number, units: DecimalUnits = UK_DECIMAL_UNITS, lang = 'en'): string {
  return scale(bytes, 1000, [units.bytes, units.kb, units.mb, units.gb], lang);
}
