import { screen } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { initTestI18n, renderWithShell } from '../../../test/utils';
import '../i18n';
import { ArticleCard, aroundName } from './ArticleCard';

beforeAll(async () => {
  await initTestI18n('en');
});

describe('aroundName', () => {
  it.each([
    ['about “<name></name>”', ['about “', '”']],
    ['о «<name>{{name}}</name>»', ['о «', '»']],
    ['<name></name> — read it', ['', ' — read it']],
    ['no slot at all', ['no slot at all', '']],
  ])('%s', (sentence, want) => {
    expect(aroundName(sentence)).toEqual(want);
  });
});

describe('ArticleCard', () => {
  it('“Read more” names the article, the name in the article’s own language', () => {
    renderWithShell(
      <ArticleCard
        article={{
          id: 7,
          slug: 'a-7',
          name: 'Статья 7',
          excerpt: 'Описание',
          category: 'Go',
          image_url: '',
          lang: 'ru',
          createdAt: '2025-01-10T09:00:00Z',
          updatedAt: '2025-01-10T09:00:00Z',
        }}
      />,
    );
    const more = screen.getByRole('link', { name: 'Read more about “Статья 7”' });
    expect(more.getAttribute('href')).toBe('/blog/7');
    const name = more.querySelector('.visually-hidden [lang]');
    expect(name?.getAttribute('lang')).toBe('ru');
    expect(name?.textContent).toBe('Статья 7');
    expect(more.querySelector('.visually-hidden')?.textContent).toBe('about “Статья 7”');
  });
});
