import { createInstance } from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import en from '../locales/en.json';
import ru from '../locales/ru.json';
import uk from '../locales/uk.json';
import { json, stubFetch } from '../test/utils';
import { i18nOptions } from './i18n';

function keys(obj: object, prefix = ''): string[] {
  return Object.entries(obj).flatMap(([k, v]) =>
    v && typeof v === 'object' ? keys(v, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}

describe('locales', () => {
  it('uk, ru and en have the same keys', () => {
    const enKeys = keys(en).sort();
    expect(keys(uk).sort()).toEqual(enKeys);
    expect(keys(ru).sort()).toEqual(enKeys);
  });

  it('carry the spec keys', () => {
    const required = [
      'brand', 'subtitle', 'tools', 'toolsDropdown', 'toolsItems.camera', 'toolsItems.microphone',
      'toolsItems.ip', 'toolsItems.toneGenerator', 'chat', 'games', 'blog', 'files', 'profile',
      'openMenu', 'closeMenu', 'home', 'login', 'register', 'logout', 'admin', 'user',
    ];
    for (const locale of [en, uk, ru]) expect(keys(locale)).toEqual(expect.arrayContaining(required));
  });

  it('the Ukrainian chat label means "gatherings"', () => {
    expect(uk.chat).toBe('Посиденьки');
  });
});

describe('translation fallback', () => {
  const resources = {
    en: { translation: { onlyEn: 'English text', both: 'Both (en)' } },
    uk: { translation: { both: 'Обидва (uk)' } },
    ru: { translation: {} },
  };

  async function make(lng: 'uk' | 'ru' | 'en') {
    const inst = createInstance();
    await inst.init(i18nOptions(lng, resources));
    return inst;
  }

  it('uses the current language when the key exists', async () => {
    const t = (await make('uk')).t;
    expect(t('both')).toBe('Обидва (uk)');
  });

  it('a key missing in uk falls back to English', async () => {
    const t = (await make('uk')).t;
    expect(t('onlyEn')).toBe('English text');
    expect(t('onlyEn', 'Default')).toBe('English text');
  });

  it('a key missing everywhere falls back to the supplied default', async () => {
    const t = (await make('uk')).t;
    expect(t('nowhere', 'Supplied default')).toBe('Supplied default');
    expect(t('nowhere', { defaultValue: 'Option default' })).toBe('Option default');
  });

  it('without a default, the key itself', async () => {
    const t = (await make('ru')).t;
    expect(t('nowhere.at.all')).toBe('nowhere.at.all');
  });
});

describe('initI18n and setLanguage', () => {
  beforeEach(() => {
    vi.resetModules();
    localStorage.clear();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('a saved language is used without asking /api/ip', async () => {
    localStorage.setItem('preferredLanguage', 'ru');
    const fetch = stubFetch();
    const mod = await import('./i18n');
    await expect(mod.initI18n()).resolves.toBe('ru');
    expect(mod.i18n.t('games')).toBe('Игры');
    expect(document.documentElement.lang).toBe('ru');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('the country from /api/ip picks the language', async () => {
    const fetch = stubFetch({ '/api/ip': () => json({ ip: '1.2.3.4', country: 'Ukraine', countryCode: 'UA' }) });
    const mod = await import('./i18n');
    await expect(mod.initI18n()).resolves.toBe('uk');
    expect(mod.i18n.t('chat')).toBe('Посиденьки');
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(String(fetch.mock.calls[0][0])).toBe('/api/ip');
  });

  it('a failing /api/ip falls back to the browser language (never throws)', async () => {
    stubFetch({ '/api/ip': () => json({ status: 500, message: 'boom' }, 500) });
    vi.spyOn(navigator, 'language', 'get').mockReturnValue('uk-UA');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const mod = await import('./i18n');
    await expect(mod.initI18n()).resolves.toBe('uk');
    expect(warn).toHaveBeenCalled();
  });

  it('setLanguage switches, saves, and notifies listeners', async () => {
    localStorage.setItem('preferredLanguage', 'en');
    stubFetch();
    const mod = await import('./i18n');
    await mod.initI18n();
    const seen: string[] = [];
    mod.i18n.on('languageChanged', (l) => seen.push(l));
    await mod.setLanguage('uk');
    expect(mod.i18n.t('profile')).toBe('Профіль');
    expect(localStorage.getItem('preferredLanguage')).toBe('uk');
    expect(seen).toEqual(['uk']);
    expect(document.documentElement.lang).toBe('uk');
  });

  it('loads the interface language\'s translations only', async () => {
    localStorage.setItem('preferredLanguage', 'ru');
    stubFetch();
    const mod = await import('./i18n');
    await mod.initI18n();
    expect(mod.i18n.hasResourceBundle('ru', 'translation')).toBe(true);
    expect(mod.i18n.hasResourceBundle('en', 'translation')).toBe(false);
    expect(mod.i18n.hasResourceBundle('uk', 'translation')).toBe(false);
  });

  it('setLanguage has the new language\'s texts before it switches (no bare keys in between)', async () => {
    localStorage.setItem('preferredLanguage', 'en');
    stubFetch();
    const mod = await import('./i18n');
    await mod.initI18n();
    const seen: string[] = [];
    mod.i18n.on('languageChanged', () => seen.push(mod.i18n.t('games')));
    await mod.setLanguage('ru');
    expect(seen).toEqual(['Игры']);
    expect(mod.i18n.hasResourceBundle('uk', 'translation')).toBe(false);
  });

  it('of two quick choices the later one wins, though the earlier one\'s texts arrive after it', async () => {
    localStorage.setItem('preferredLanguage', 'en');
    stubFetch();
    const mod = await import('./i18n');
    await mod.initI18n();
    const first = mod.setLanguage('ru'); // its chunk is still on its way
    const second = mod.setLanguage('en'); // already loaded: switches at once
    await expect(Promise.all([first, second])).resolves.toEqual(['en', 'en']);
    expect(mod.i18n.language).toBe('en');
    expect(localStorage.getItem('preferredLanguage')).toBe('en');
  });

  it('a language whose translations cannot be loaded is not switched to', async () => {
    localStorage.setItem('preferredLanguage', 'en');
    stubFetch();
    vi.doMock('../locales/uk.json', () => {
      throw new Error('chunk failed');
    });
    const mod = await import('./i18n');
    await mod.initI18n();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await expect(mod.setLanguage('uk')).resolves.toBe('en');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(mod.i18n.language).toBe('en');
    expect(mod.i18n.t('profile')).toBe('Profile');
    expect(localStorage.getItem('preferredLanguage')).toBe('en');
    vi.doUnmock('../locales/uk.json');
  });

  it('setLanguage with an unsupported language warns and uses English', async () => {
    localStorage.setItem('preferredLanguage', 'ru');
    stubFetch();
    const mod = await import('./i18n');
    await mod.initI18n();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await expect(mod.setLanguage('fr')).resolves.toBe('en');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(mod.i18n.t('profile')).toBe('Profile');
    expect(localStorage.getItem('preferredLanguage')).toBe('en');
  });

  it('feature translations registered before init are applied', async () => {
    localStorage.setItem('preferredLanguage', 'uk');
    stubFetch();
    const mod = await import('./i18n');
    mod.registerTranslations('demo', { en: { hello: 'Hello' }, uk: { hello: 'Привіт' } });
    await mod.initI18n();
    expect(mod.i18n.t('hello', { ns: 'demo' })).toBe('Привіт');
    mod.registerTranslations('late', { en: { bye: 'Bye' } });
    expect(mod.i18n.t('bye', { ns: 'late' })).toBe('Bye');
  });
});
