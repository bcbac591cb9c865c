import { describe, expect, it } from 'vitest';
import { formatNumber } from './numberFormat';

describe('formatNumber', () => {
  it.each([
    ['uk', 50, 2, '50,00'],
    ['ru', 3.5, 2, '3,50'],
    ['en', 50, 2, '50.00'],
    ['en', 1177.38, 2, '1177.38'],
    ['uk', 1177.38, 2, '1177,38'],
    ['uk', 12.345, 1, '12,3'],
    ['en', 48000, undefined, '48,000'],
    ['uk', Number.NaN, 2, '0,00'],
  ] as const)('%s %d (%s digits) → %s', (lang, value, digits, want) => {
    expect(formatNumber(value, lang, digits).replace(/\s/g, ' ')).toBe(want);
  });
  it('an unknown language tag falls back to English', () => {
    expect(formatNumber(1.5, 'not a tag!', 2)).toBe('1.50');
  });
});
