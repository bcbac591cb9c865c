import { describe, expect, it } from 'vitest';
import rules from '../../../../testdata/rules/bytes.json';
import { formatBinary, formatDecimal, formatMB, formatSpeed } from './format';

const cases = (format: 'listMB' | 'binary' | 'decimal') => rules[format].map((c) => [c.bytes, c.text] as const);

describe('formatMB (lists; testdata/rules/bytes.json listMB)', () => {
  it.each(cases('listMB'))('%d bytes → %s', (bytes, want) => {
    expect(formatMB(bytes)).toBe(want);
  });
  it('takes translated units and writes the language\'s decimal comma', () => {
    const uk = { kb: 'КБ', mb: 'МБ' };
    expect(formatMB(1024 * 1024, uk, 'uk')).toBe('1,00 МБ');
    expect(formatMB(1946, uk, 'uk')).toBe('1,90 КБ');
    expect(formatMB(1572864, { kb: 'КБ', mb: 'МБ' }, 'ru')).toBe('1,50 МБ');
  });
});

describe('formatBinary / formatSpeed (uploader; testdata/rules/bytes.json binary)', () => {
  it.each(cases('binary'))('%d bytes → %s', (bytes, want) => {
    expect(formatBinary(bytes)).toBe(want);
  });
  it('adds /s to speeds', () => {
    expect(formatSpeed(2.5 * 1024 * 1024)).toBe('2.50 MB/s');
  });
  it('takes translated units', () => {
    const uk = ['Б', 'КБ', 'МБ', 'ГБ', 'ТБ'] as const;
    expect(formatBinary(512, uk)).toBe('512 Б');
    expect(formatSpeed(1536, uk, '/с')).toBe('1.50 КБ/с');
    expect(formatSpeed(1536, uk, '/с', 'uk')).toBe('1,50 КБ/с');
  });
});

describe('formatDecimal (detail page; testdata/rules/bytes.json decimal)', () => {
  it.each(cases('decimal'))('%d bytes → %s', (bytes, want) => {
    expect(formatDecimal(bytes)).toBe(want);
  });
  it('takes translated units', () => {
    expect(formatDecimal(1500, { bytes: 'bytes', kb: 'KB', mb: 'MB', gb: 'GB' })).toBe('1.50 KB');
    expect(formatDecimal(2345678, undefined, 'uk')).toBe('2,35 МБ');
  });
});
