import { afterEach, describe, expect, it, vi } from 'vitest';
import { dateTimeFormat, formatDateTime } from './dateTimeFormat';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('dateTimeFormat', () => {
  it('builds one formatter per language and options', () => {
    const build = vi.spyOn(Intl, 'DateTimeFormat');
    const a = dateTimeFormat('uk', { month: 'long' });
    expect(dateTimeFormat('uk', { month: 'long' })).toBe(a);
    expect(dateTimeFormat('ru', { month: 'long' })).not.toBe(a);
    expect(dateTimeFormat('uk', { month: 'short' })).not.toBe(a);
    expect(build).toHaveBeenCalledTimes(3);
  });

  it('writes what Intl writes, and nothing for an invalid date', () => {
    const iso = '2025-01-10T09:00:00Z';
    const intl = new Intl.DateTimeFormat('uk', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
    expect(formatDateTime(iso, 'uk')).toBe(intl);
    expect(formatDateTime('not a date', 'uk')).toBe('');
  });

  it('falls back to English for a tag Intl refuses', () => {
    expect(dateTimeFormat('not a tag!', { year: 'numeric' }).resolvedOptions().locale).toMatch(/^en/);
  });
});
