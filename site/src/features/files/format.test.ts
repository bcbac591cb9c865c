import { describe, expect, it } from 'vitest';
import { formatBinary, formatDecimal, formatMB, formatSpeed } from './format';

describe('formatMB (lists)', () => {
  it.each([
    [0, '0.00 MB'],
    [1024, '0.00 MB'],
    [10 * 1024, '0.01 MB'],
    [1024 * 1024, '1.00 MB'],
    [1.5 * 1024 * 1024, '1.50 MB'],
    [1234567890, '1177.38 MB'],
  ])('%d bytes → %s', (bytes, want) => {
    expect(formatMB(bytes)).toBe(want);
  });
  it('takes a translated unit', () => {
    expect(formatMB(1024 * 1024, 'МБ')).toBe('1.00 МБ');
  });
});

describe('formatBinary / formatSpeed (uploader)', () => {
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1024, '1.00 KB'],
    [1536, '1.50 KB'],
    [5 * 1024 * 1024, '5.00 MB'],
    [3 * 1024 ** 3, '3.00 GB'],
    [1024 * 1024 - 1, '1.00 MB'],
    [1024 * 1024 - 6000, '1018.14 KB'],
  ])('%d bytes → %s', (bytes, want) => {
    expect(formatBinary(bytes)).toBe(want);
  });
  it('adds /s to speeds', () => {
    expect(formatSpeed(2.5 * 1024 * 1024)).toBe('2.50 MB/s');
  });
  it('takes translated units', () => {
    const uk = ['Б', 'КБ', 'МБ', 'ГБ', 'ТБ'] as const;
    expect(formatBinary(512, uk)).toBe('512 Б');
    expect(formatSpeed(1536, uk, '/с')).toBe('1.50 КБ/с');
  });
});

describe('formatDecimal (detail page)', () => {
  it.each([
    [0, '0 байт'],
    [999, '999 байт'],
    [1000, '1.00 КБ'],
    [1500, '1.50 КБ'],
    [999_999, '1.00 МБ'],
    [999_994, '999.99 КБ'],
    [999_995_000, '1.00 ГБ'],
    [1_000_000, '1.00 МБ'],
    [2_345_678, '2.35 МБ'],
    [1_000_000_000, '1.00 ГБ'],
    [4_294_967_296, '4.29 ГБ'],
  ])('%d bytes → %s', (bytes, want) => {
    expect(formatDecimal(bytes)).toBe(want);
  });
  it('takes translated units', () => {
    expect(formatDecimal(1500, { bytes: 'bytes', kb: 'KB', mb: 'MB', gb: 'GB' })).toBe('1.50 KB');
  });
});
