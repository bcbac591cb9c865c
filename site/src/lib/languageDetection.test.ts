import { describe, expect, it, vi } from 'vitest';
import {
  COUNTRY_LANGUAGE,
  countryToLanguage,
  detectLanguage,
  normalizeLanguage,
  type DetectionInput,
} from './languageDetection';

function input(over: Partial<DetectionInput> = {}) {
  const warn = vi.fn();
  const fetchCountry = vi.fn(async () => ({ country: 'Unknown', countryCode: '' }));
  return { saved: null, browserLanguage: null, warn, fetchCountry, ...over } as DetectionInput & {
    warn: ReturnType<typeof vi.fn>;
    fetchCountry: ReturnType<typeof vi.fn>;
  };
}

describe('country → language map', () => {
  it.each([
    ['UA', 'uk'],
    ['RU', 'ru'],
    ['BY', 'ru'],
    ['KZ', 'ru'],
    ['KG', 'ru'],
    ['TJ', 'ru'],
    ['AM', 'ru'],
    ['AZ', 'ru'],
    ['MD', 'ru'],
    ['UZ', 'ru'],
    ['FR', 'fr'],
    ['SN', 'fr'],
    ['ES', 'es'],
    ['MX', 'es'],
    ['AR', 'es'],
    ['PT', 'pt'],
    ['BR', 'pt'],
    ['AO', 'pt'],
    ['US', 'en'],
    ['DE', 'en'],
    ['JP', 'en'],
    ['ua', 'uk'],
  ])('%s → %s', (code, lang) => {
    expect(countryToLanguage(code)).toBe(lang);
  });

  it('unknown or malformed codes give no language', () => {
    for (const v of [undefined, null, '', 'Unknown', 'U', 'UKR', 42]) {
      expect(countryToLanguage(v)).toBeNull();
    }
  });

  it('maps only to the five languages of the spec', () => {
    expect(new Set(Object.values(COUNTRY_LANGUAGE))).toEqual(new Set(['uk', 'ru', 'fr', 'es', 'pt']));
  });

  it('normalises language tags', () => {
    expect(normalizeLanguage('uk-UA')).toBe('uk');
    expect(normalizeLanguage('RU_ru')).toBe('ru');
    expect(normalizeLanguage('')).toBeNull();
    expect(normalizeLanguage(undefined)).toBeNull();
  });
});

describe('detectLanguage order', () => {
  it('a saved supported language wins and skips the country lookup', async () => {
    const i = input({ saved: 'ru', browserLanguage: 'en-US' });
    i.fetchCountry.mockResolvedValue({ country: 'Ukraine', countryCode: 'UA' });
    await expect(detectLanguage(i)).resolves.toMatchObject({ language: 'ru', source: 'saved' });
    expect(i.fetchCountry).not.toHaveBeenCalled();
    expect(i.warn).not.toHaveBeenCalled();
  });

  it('a saved unsupported language is ignored (with a warning) and the country decides', async () => {
    const i = input({ saved: 'de', browserLanguage: 'en-US' });
    i.fetchCountry.mockResolvedValue({ country: 'Ukraine', countryCode: 'UA' });
    await expect(detectLanguage(i)).resolves.toMatchObject({ language: 'uk', source: 'country' });
    expect(i.fetchCountry).toHaveBeenCalledTimes(1);
    expect(i.warn).toHaveBeenCalledTimes(1);
  });

  it('the country comes before the browser language', async () => {
    const i = input({ browserLanguage: 'uk-UA' });
    i.fetchCountry.mockResolvedValue({ country: 'Kazakhstan', countryCode: 'KZ' });
    await expect(detectLanguage(i)).resolves.toMatchObject({ language: 'ru', source: 'country' });
  });

  it('a country of another language gives English, without consulting the browser', async () => {
    const i = input({ browserLanguage: 'ru-RU' });
    i.fetchCountry.mockResolvedValue({ country: 'Germany', countryCode: 'DE' });
    await expect(detectLanguage(i)).resolves.toMatchObject({ language: 'en', source: 'country' });
    expect(i.warn).not.toHaveBeenCalled();
  });

  it.each([
    ['France', 'FR', 'fr'],
    ['Brazil', 'BR', 'pt'],
    ['Mexico', 'MX', 'es'],
  ])('%s maps to unsupported %s → English with a warning', async (country, code, detected) => {
    const i = input({ browserLanguage: 'uk' });
    i.fetchCountry.mockResolvedValue({ country, countryCode: code });
    await expect(detectLanguage(i)).resolves.toEqual({ language: 'en', source: 'country', detected });
    expect(i.warn).toHaveBeenCalledTimes(1);
    expect(String(i.warn.mock.calls[0][0])).toContain(detected);
  });

  it('an unknown country (private address) falls through to the browser language', async () => {
    const i = input({ browserLanguage: 'uk-UA' });
    i.fetchCountry.mockResolvedValue({ country: 'Unknown', countryCode: '' });
    await expect(detectLanguage(i)).resolves.toMatchObject({ language: 'uk', source: 'browser' });
  });

  it('"Unknown" wins over a placeholder code', async () => {
    const i = input({ browserLanguage: 'ru' });
    i.fetchCountry.mockResolvedValue({ country: 'Unknown', countryCode: 'US' });
    await expect(detectLanguage(i)).resolves.toMatchObject({ language: 'ru', source: 'browser' });
  });

  it('a failed /api/ip lookup falls through to the browser language with a warning', async () => {
    const i = input({ browserLanguage: 'ru-RU' });
    i.fetchCountry.mockRejectedValue(new Error('HTTP error! status: 500'));
    await expect(detectLanguage(i)).resolves.toMatchObject({ language: 'ru', source: 'browser' });
    expect(i.warn).toHaveBeenCalledTimes(1);
  });

  it('an unsupported browser language → English with a warning', async () => {
    const i = input({ browserLanguage: 'es-ES' });
    await expect(detectLanguage(i)).resolves.toEqual({ language: 'en', source: 'browser', detected: 'es' });
    expect(i.warn).toHaveBeenCalledTimes(1);
  });

  it('with nothing to go on, English', async () => {
    const i = input({ browserLanguage: '' });
    i.fetchCountry.mockResolvedValue(null);
    await expect(detectLanguage(i)).resolves.toEqual({ language: 'en', source: 'default', detected: 'en' });
    expect(i.warn).not.toHaveBeenCalled();
  });
});
