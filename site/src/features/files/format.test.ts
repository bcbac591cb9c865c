import { describe, expect, it } from 'vitest';
import rules from '../../../../testdata/rules/bytes.json';
import { formatBinary, formatDecimal, formatMB, formatSpeed } from './format';

const cases = (format: 'listMB' | 'binary' | 'decimal') => rules[format].map((c) => [c.bytes, c.text] as const);

describe('formatMB (lists; testdata/rules/bytes.json listMB)', () => {
  it.each(cases('listMB'))('%d bytes → %s', (bytes, want) => {
    expect(formatMB(bytes)).toBe(want);
  });
  it('takes a translated unit', () => {
    expect(formatMB(1024 * 1024, 'МБ')).toBe('1.00 МБ');
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
  });
});

describe('formatDecimal (detail page; testdata/rules/bytes.json decimal)', () => {
  it.each(cases('decimal'))('%d bytes → %s', (bytes, want) => {
    expect(formatDecimal(bytes)).toBe(want);
  });
  it('takes translated units', () => {
    expect(formatDecimal(1500, { bytes: 'bytes', kb: 'KB', mb: 'MB', gb: 'GB' })).toBe('1.50 KB');
  });
});
