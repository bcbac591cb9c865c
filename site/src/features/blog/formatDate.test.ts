import { describe, expect, it } from 'vitest';
import { formatDate } from './formatDate';

describe('formatDate', () => {
  it.each([
    ['2025-01-10T12:00:00Z', 'en', 'January 10, 2025'],
    ['2025-01-10T12:00:00Z', 'uk', '10 січня 2025 р.'],
    ['2025-01-10T23:30:00-05:00', 'en', 'January 11, 2025'], // the UTC day
    ['not a date', 'en', 'not a date'],
    ['2025-01-10T12:00:00Z', 'xx-invalid-tag-!', '2025-01-10'],
  ])('%s in %s → %s', (iso, lang, want) => {
    expect(formatDate(iso, lang)).toBe(want);
    expect(formatDate(iso, lang)).toBe(want); // the cached formatter gives the same
  });
});
