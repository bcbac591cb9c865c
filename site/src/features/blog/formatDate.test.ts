import { describe, expect, it } from 'vitest';
import { formatDate } from './formatDate';

describe('formatDate', () => {
  it.each([
    ['2025-01-10T12:00:00Z', 'en', 'January 10, 2025'],
    ['2025-01-10T12:00:00Z', 'uk', '10 січня 2025 р.'],
    ['2025-05-01T00:00:00Z', 'ru', '1 мая 2025 г.'],
    ['2025-01-10T23:30:00-05:00', 'en', 'January 11, 2025'], // the UTC day
    ['2025-01-10T12:00:00Z', 'de', '10. Januar 2025'], // not an interface language: Intl
    ['not a date', 'en', 'not a date'],
    ['2025-01-10T12:00:00Z', 'xx-invalid-tag-!', '2025-01-10'],
  ])('%s in %s → %s', (iso, lang, want) => {
    expect(formatDate(iso, lang)).toBe(want);
    expect(formatDate(iso, lang)).toBe(want); // the cached formatter gives the same
  });

  it.each(['en', 'uk', 'ru'])('%s is written exactly as Intl’s long date style, every month', (lang) => {
    const intl = new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeZone: 'UTC' });
    for (let m = 0; m < 12; m++) {
      for (const day of [1, 9, 10, 28]) {
        const d = new Date(Date.UTC(2024 + (m % 3), m, day, 15));
        expect(formatDate(d.toISOString(), lang)).toBe(intl.format(d));
      }
    }
  });
});
