import { act, render, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, useNavigate, type NavigateFunction } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { initTestI18n } from '../test/utils';
import { i18n } from './i18n';
import { SUPPORTED_LANGUAGES } from './languageDetection';
import { descriptionKey, loadDescriptions, usePageDescription, useRouteDescription } from './pageDescription';

const meta = () => document.head.querySelector<HTMLMetaElement>('meta[name="description"]')?.content;

describe('descriptionKey', () => {
  it.each([
    ['/', 'home'],
    ['/skills', 'skills'],
    ['/tools', 'tools'],
    ['/tools/camera', 'camera'],
    ['/tools/microphone', 'microphone'],
    ['/tools/ip', 'ip'],
    ['/tools/tone_generator', 'tone'],
    ['/chat', 'chat'],
    ['/games', 'games'],
    ['/blog', 'blog'],
    ['/blog/12', 'article'],
    ['/blog/', 'blog'],
    ['/filecloud', 'filecloud'],
    ['/filecloud/3', 'file'],
    ['/s/AbC_-9', 'share'],
    ['/profile', 'profile'],
    ['/privacy', 'privacy'],
    ['/terms', 'terms'],
    ['/no/such/page', 'notFound'],
    ['/tools/nope', 'notFound'],
    ['/blog/1/more', 'notFound'],
  ])('%s → %s', (path, key) => {
    expect(descriptionKey(path)).toBe(key);
  });
});

describe('the descriptions', () => {
  it('exist for every route in uk, ru and en, each its own text', async () => {
    const en = await loadDescriptions('en');
    for (const lang of SUPPORTED_LANGUAGES) {
      const texts = await loadDescriptions(lang);
      expect(Object.keys(texts).sort(), lang).toEqual(Object.keys(en).sort());
      for (const [key, text] of Object.entries(texts)) {
        expect(text.trim().length, `${lang} ${key}`).toBeGreaterThan(10);
        // a search result's snippet: short enough not to be cut
        expect(text.length, `${lang} ${key}`).toBeLessThanOrEqual(160);
        if (lang !== 'en') expect(text, `${lang} ${key} is translated`).not.toBe(en[key as keyof typeof en]);
      }
    }
  });
});

let navigate: NavigateFunction;
function Shell({ article }: { article?: string }) {
  useRouteDescription();
  navigate = useNavigate();
  return article !== undefined ? <Article excerpt={article} /> : null;
}
function Article({ excerpt }: { excerpt: string }) {
  usePageDescription(excerpt || null);
  return null;
}

describe('useRouteDescription and usePageDescription', () => {
  beforeEach(async () => {
    document.head.innerHTML = '<meta name="description" content="From the server" />';
    await initTestI18n('uk');
  });
  afterEach(async () => {
    await initTestI18n('en');
  });

  it('follow the route and the interface language; a page’s own description wins while it is shown', async () => {
    const [uk, ru, en] = await Promise.all([loadDescriptions('uk'), loadDescriptions('ru'), loadDescriptions('en')]);
    const view = render(
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={['/games']}>
          <Shell />
        </MemoryRouter>
      </I18nextProvider>,
    );
    await waitFor(() => expect(meta()).toBe(uk.games));
    act(() => navigate('/blog'));
    await waitFor(() => expect(meta()).toBe(uk.blog));
    await act(() => i18n.changeLanguage('ru'));
    await waitFor(() => expect(meta()).toBe(ru.blog));

    // an article: its excerpt, also after a language change; its route's again once it is gone
    act(() => navigate('/blog/7'));
    view.rerender(
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={['/games']}>
          <Shell article="How the blog works" />
        </MemoryRouter>
      </I18nextProvider>,
    );
    await waitFor(() => expect(meta()).toBe('How the blog works'));
    await act(() => i18n.changeLanguage('en'));
    // the English texts are in (the shell's load of them done): the excerpt is still there
    await act(() => loadDescriptions('en'));
    expect(meta()).toBe('How the blog works');
    view.rerender(
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={['/games']}>
          <Shell />
        </MemoryRouter>
      </I18nextProvider>,
    );
    act(() => navigate('/privacy'));
    await waitFor(() => expect(meta()).toBe(en.privacy));
  });

  it('adds the meta element when the document has none', async () => {
    document.head.innerHTML = '';
    const uk = await loadDescriptions('uk');
    render(
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={['/nowhere']}>
          <Shell />
        </MemoryRouter>
      </I18nextProvider>,
    );
    await waitFor(() => expect(meta()).toBe(uk.notFound));
  });
});
