import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../lib/i18n';
import { initTestI18n, json, renderWithShell, stubFetch } from '../../../test/utils';
import DevToolsPage from './DevToolsPage';
import HomePage from './HomePage';
import SkillsPage from './SkillsPage';

const six = (en: string) => ({ en, uk: `uk ${en}`, ru: `ru ${en}`, es: `es ${en}`, fr: `fr ${en}`, pt: `pt ${en}` });
const PROFILE = {
  name: { en: 'Ann Example', ru: 'Анна Пример' },
  headline: { en: 'Go developer', ru: 'Разработчица на Go' },
  bio: { en: 'I build things.' },
  avatar: 'a.png',
  avatarUrl: '/api/profile/avatar?v=1',
  location: null,
  links: [{ label: 'GitHub', url: 'https://github.com/ann', icon: 'github' }],
  services: [{ name: { en: 'Backend', ru: 'Бэкенд' }, description: { en: 'APIs in Go', ru: 'API на Go' }, icon: 'go' }],
  technologies: [{ name: { en: 'Go' }, icon: 'go' }, { name: { en: 'Made up' }, icon: 'nosuchlogo' }],
  tools: [{ name: { en: 'Git' }, icon: 'git' }],
  devtools: {
    intro: six('Intro'),
    groups: [{ title: six('Development Environment'), tools: [{ name: { en: 'Neovim' }, icon: 'neovim' }] }],
    philosophy: six('Few tools, well understood.'),
  },
  projects: [{ name: 'devhub', description: { en: 'This site.' }, link: 'https://example.org/devhub', tags: ['Go', 'React'] }],
};

beforeEach(async () => {
  await initTestI18n('en');
});
afterEach(() => vi.unstubAllGlobals());

describe('portfolio pages', () => {
  it('/skills lists services with descriptions, technologies and tools with icons, and switches to Russian locally', async () => {
    stubFetch({ '/api/profile': () => json(PROFILE) });
    const { container } = renderWithShell(<SkillsPage />);
    expect(await screen.findByRole('heading', { name: 'Backend' })).toBeTruthy();
    expect(screen.getByText('APIs in Go')).toBeTruthy();
    const tech = screen.getByRole('region', { name: 'Technologies' });
    expect(within(tech).getAllByRole('listitem')).toHaveLength(2);
    expect(container.querySelectorAll('img[src="/icons/go.svg"]').length).toBe(2);
    expect(screen.getByRole('heading', { level: 1, name: 'Skills' })).toBeTruthy();

    const select = screen.getByRole('combobox', { name: 'Language' });
    expect([...(select as HTMLSelectElement).options].map((o) => o.value)).toEqual(['en', 'ru']);
    fireEvent.change(select, { target: { value: 'ru' } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Навыки' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Бэкенд' })).toBeTruthy();
    expect(screen.getByText('Разработчица на Go')).toBeTruthy();
    // a text without a Russian version falls back to English
    expect(screen.getByText('Made up')).toBeTruthy();
  });

  it('/skills in the Ukrainian interface opens in Russian, the nearest language it has, and says so on its title and lead', async () => {
    await initTestI18n('uk');
    stubFetch({ '/api/profile': () => json(PROFILE) });
    renderWithShell(<SkillsPage />);
    await screen.findByRole('heading', { name: 'Бэкенд' });
    const h1 = screen.getByRole('heading', { level: 1, name: 'Навыки' });
    expect(h1.getAttribute('lang')).toBe('ru');
    expect(screen.getByText('Разработчица на Go').getAttribute('lang')).toBe('ru');
    expect((screen.getByRole('combobox') as HTMLSelectElement).value).toBe('ru');
    fireEvent.change(screen.getByRole('combobox'), { target: { value: 'en' } });
    expect((await screen.findByRole('heading', { level: 1, name: 'Skills' })).getAttribute('lang')).toBe('en');
    expect(screen.getByText('Go developer').getAttribute('lang')).toBe('en');
  });

  it.each([
    ['/', HomePage, { uk: 'uk', ru: 'ru', en: 'en' }],
    ['/skills', SkillsPage, { uk: 'ru', ru: 'ru', en: 'en' }],
    ['/tools', DevToolsPage, { uk: 'uk', ru: 'ru', en: 'en' }],
  ] as const)('%s follows the header language when it changes, over a language picked on the page', async (_path, Page, expected) => {
    stubFetch({ '/api/profile': () => json(PROFILE) });
    const { container } = renderWithShell(<Page />);
    const select = () => screen.getByRole('combobox') as HTMLSelectElement;
    const pageLang = () => container.querySelector('select')!.closest('[lang]')!.getAttribute('lang');
    await screen.findAllByText(/Ann Example|Backend|Development Environment/);
    expect(select().value).toBe(expected.en);
    // A pick on the page holds while the header stays…
    fireEvent.change(select(), { target: { value: 'ru' } });
    expect(select().value).toBe('ru');
    expect(pageLang()).toBe('ru');
    // …and the header's next change wins again.
    for (const site of ['uk', 'en', 'ru', 'uk'] as const) {
      await act(async () => {
        await i18n.changeLanguage(site);
      });
      expect(select().value, site).toBe(expected[site]);
      expect(pageLang(), site).toBe(expected[site]);
    }
  });

  it('/tools marks its title and lead with the language chosen on the page', async () => {
    await initTestI18n('ru');
    stubFetch({ '/api/profile': () => json(PROFILE) });
    renderWithShell(<DevToolsPage />);
    await screen.findByRole('heading', { name: 'ru Development Environment' });
    expect(screen.getByRole('heading', { level: 1, name: 'Инструменты разработки' }).getAttribute('lang')).toBe('ru');
    fireEvent.change(screen.getByRole('combobox'), { target: { value: 'fr' } });
    expect((await screen.findByRole('heading', { level: 1, name: 'Outils de développement' })).getAttribute('lang')).toBe('fr');
    expect(screen.getByText('fr Intro').getAttribute('lang')).toBe('fr');
  });

  it('an icon the set lacks falls back to the generic icon', async () => {
    stubFetch({ '/api/profile': () => json(PROFILE) });
    const { container } = renderWithShell(<SkillsPage />);
    await screen.findByText('Made up');
    const img = container.querySelector('img[src="/icons/nosuchlogo.svg"]')!;
    fireEvent.error(img);
    expect(container.querySelector('img[data-icon="generic"]')?.getAttribute('src')).toBe('/icons/generic.svg');
  });

  it('/tools shows the groups and the philosophy in each of its six languages', async () => {
    stubFetch({ '/api/profile': () => json(PROFILE) });
    renderWithShell(<DevToolsPage />);
    expect(await screen.findByRole('heading', { name: 'Development Environment' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Development Tools' })).toBeTruthy();
    const select = screen.getByRole('combobox', { name: 'Language' });
    expect([...(select as HTMLSelectElement).options].map((o) => o.value)).toEqual(['en', 'ru', 'uk', 'es', 'fr', 'pt']);
    const titles: Record<string, string> = { ru: 'Инструменты разработки', uk: 'Інструменти розробки', es: 'Herramientas de desarrollo', fr: 'Outils de développement', pt: 'Ferramentas de desenvolvimento' };
    for (const [lang, title] of Object.entries(titles)) {
      fireEvent.change(screen.getByRole('combobox'), { target: { value: lang } });
      expect(await screen.findByRole('heading', { level: 1, name: title })).toBeTruthy();
      expect(screen.getByText(`${lang} Few tools, well understood.`)).toBeTruthy();
      expect(screen.getByRole('heading', { name: `${lang} Development Environment` })).toBeTruthy();
    }
  });

  it('says so when the owner has no profile, and shows the error otherwise', async () => {
    stubFetch({ '/api/profile': () => json({ status: 404, message: 'no profile', data: null }, 404) });
    renderWithShell(<DevToolsPage />);
    expect(await screen.findByText('The owner has not filled in the portfolio yet.')).toBeTruthy();
  });

  it('shows a failed load as an error', async () => {
    stubFetch({ '/api/profile': () => json({ status: 500, message: 'boom', data: null }, 500) });
    renderWithShell(<SkillsPage />);
    expect((await screen.findByRole('alert')).textContent).toContain('The portfolio could not be loaded');
  });

  it('the home page shows the owner and the featured projects', async () => {
    stubFetch({ '/api/profile': () => json(PROFILE) });
    renderWithShell(<HomePage />);
    expect(await screen.findByText('Ann Example')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'GitHub' }).getAttribute('href')).toBe('https://github.com/ann');
    const projects = screen.getByRole('region', { name: 'Featured projects' });
    expect(within(projects).getByRole('link', { name: 'devhub' })).toBeTruthy();
    expect(within(projects).getByText('React')).toBeTruthy();
  });
});
