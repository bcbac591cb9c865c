import { afterEach, describe, expect, it, vi } from 'vitest';
import { dateTimeFormat, formatDateTime, formatLongDate } from './dateTimeFormat';

afterEach(() => {
  vi.restoreAllMocks();
});

/** Local moments across every month, both halves of the day and its edges. */
const MOMENTS = Array.from({ length: 12 }, (_, month) =>
  [0, 1, 9, 11, 12, 13, 23].map((hour) => new Date(2026, month, (month % 28) + 1, hour, month * 5 % 60)),
).flat();

describe('formatDateTime', () => {
  it.each(['en', 'uk', 'ru'])('writes in %s exactly what Intl writes (medium date, short time)', (lang) => {
    const intl = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' });
    for (const d of MOMENTS) expect(formatDateTime(d.toISOString(), lang)).toBe(intl.format(d));
  });

  it('goes through Intl for other languages, and writes nothing for an invalid date', () => {
    const d = new Date(2026, 10, 28, 14, 5);
    expect(formatDateTime(d.toISOString(), 'fr')).toBe(new Intl.DateTimeFormat('fr', { dateStyle: 'medium', timeStyle: 'short' }).format(d));
    expect(formatDateTime('not a date', 'uk')).toBe('');
  });
});

describe('formatLongDate', () => {
  it.each(['en', 'uk', 'ru'])('writes in %s exactly what Intl writes (the month in words)', (lang) => {
    const intl = new Intl.DateTimeFormat(lang, { year: 'numeric', month: 'long', day: 'numeric' });
    for (const d of MOMENTS) expect(formatLongDate(d.toISOString(), lang)).toBe(intl.format(d));
  });

  it('writes nothing for an invalid date', () => {
    expect(formatLongDate('', 'en')).toBe('');
  });
});

describe('dateTimeFormat', () => {
  it('builds one formatter per language and options', () => {
    const build = vi.spyOn(Intl, 'DateTimeFormat');
    const a = dateTimeFormat('de', { month: 'long' });
    expect(dateTimeFormat('de', { month: 'long' })).toBe(a);
    expect(dateTimeFormat('fr', { month: 'long' })).not.toBe(a);
    expect(dateTimeFormat('de', { month: 'short' })).not.toBe(a);
    expect(build).toHaveBeenCalledTimes(3);
  });

  it('falls back to English for a tag Intl refuses', () => {
    expect(dateTimeFormat('not a tag!', { year: 'numeric' }).resolvedOptions().locale).toMatch(/^en/);
  });
});
