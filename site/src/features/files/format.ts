// Size formats of the file cloud (spec §9): lists in MB with two decimals, the uploader in
// binary units with a speed, the detail page in decimal units (1e3, 1e6, 1e9).

const MiB = 1024 * 1024;

/** List sizes: always megabytes (2^20 bytes) with two decimals, e.g. "1.50 MB". */
export function formatMB(bytes: number, unit = 'MB'): string {
  return `${(Math.max(0, bytes) / MiB).toFixed(2)} ${unit}`;
}

const BINARY_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** Uploader sizes in binary steps of 1024: "512 B", "1.50 KB", "3.20 MB". */
export function formatBinary(bytes: number): string {
  let v = Math.max(0, bytes);
  let i = 0;
  while (v >= 1024 && i < BINARY_UNITS.length - 1) {
    v /= 1024;
    i++;
  }
  return i === 0 ? `${Math.round(v)} ${BINARY_UNITS[i]}` : `${v.toFixed(2)} ${BINARY_UNITS[i]}`;
}

/** Upload speed in binary units per second. */
export function formatSpeed(bytesPerSecond: number): string {
  return `${formatBinary(bytesPerSecond)}/s`;
}

export interface DecimalUnits {
  bytes: string;
  kb: string;
  mb: string;
  gb: string;
}

export const UK_DECIMAL_UNITS: DecimalUnits = { bytes: 'байт', kb: 'КБ', mb: 'МБ', gb: 'ГБ' };

/** Detail-page size: bytes below 1000, then КБ/МБ/ГБ in steps of 1000, two decimals. */
export function formatDecimal(bytes: number, units: DecimalUnits = UK_DECIMAL_UNITS): string {
  const b = Math.max(0, bytes);
  if (b < 1e3) return `${b} ${units.bytes}`;
  if (b < 1e6) return `${(b / 1e3).toFixed(2)} ${units.kb}`;
  if (b < 1e9) return `${(b / 1e6).toFixed(2)} ${units.mb}`;
  return `${(b / 1e9).toFixed(2)} ${units.gb}`;
}
