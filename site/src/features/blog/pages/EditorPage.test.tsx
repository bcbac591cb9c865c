import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { BrowserRouter, MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AuthProvider } from '../../../lib/auth';
import { i18n } from '../../../lib/i18n';
import { initTestI18n, json, LocationProbe, stubFetch, testQueryClient } from '../../../test/utils';
import { GUARD_KEY } from '../editor/useLeaveGuard';
import EditorPage from './EditorPage';

beforeAll(async () => {
  await initTestI18n('uk');
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  localStorage.clear();
});

// A published article: it is saved only when the writer asks, so a change stays unsaved.
const article = {
  id: 7,
  slug: 'x',
  name: 'Запуск devhub',
  excerpt: 'Коротко',
  content: '# Привіт',
  content_html: '<h1>Привіт</h1>',
  category: 'Guides',
  image_url: '',
  lang: 'uk',
  translationKey: '',
  status: 'published',
  publishAt: null,
  version: 3,
  createdAt: '2025-01-10T09:00:00Z',
  updatedAt: '2025-01-10T09:00:00Z',
};

const LEAVE = 'Є незбережені зміни. Все одно піти?';

// The app's router is a BrowserRouter; a MemoryRouter is what other pages' tests use. The guard
// must hold in both: it catches the link's click before either router handles it.
const routers: [string, (children: ReactNode) => ReactNode][] = [
  ['MemoryRouter', (children) => <MemoryRouter initialEntries={['/blog/7/edit']}>{children}</MemoryRouter>],
  [
    'BrowserRouter',
    (children) => {
      window.history.replaceState(null, '', '/blog/7/edit');
      return <BrowserRouter>{children}</BrowserRouter>;
    },
  ],
];

function renderEditor(router: (children: ReactNode) => ReactNode) {
  return render(
    <QueryClientProvider client={testQueryClient()}>
      <I18nextProvider i18n={i18n}>
        <AuthProvider>
          {router(
            <>
              <Routes>
                <Route path="/blog/:id/edit" element={<EditorPage />} />
                <Route path="/blog/:id" element={<p>the article page</p>} />
              </Routes>
              <LocationProbe />
            </>,
          )}
        </AuthProvider>
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

describe.each(routers)('EditorPage leave guard in a %s', (_, router) => {
  it('asks before an in-app link leaves unsaved changes, and not once they are saved', async () => {
    localStorage.setItem('token', 'admin-token');
    const saved: unknown[] = [];
    stubFetch({
      '/api/auth/profile': () => json({ id: 1, email: 'a@example.com', name: 'Admin', role: 'admin' }),
      'GET /api/blog/7': () => json(article),
      'PATCH /api/blog/7': ({ body }) => {
        saved.push(body);
        return json({ ...article, ...(body as object), version: 4 });
      },
      'POST /api/blog/preview': () => json({ html: '<h1>Привіт</h1>' }),
      '/api/blog/7/revisions': () => json({ revisions: [] }),
    });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    renderEditor(router);
    const name = await screen.findByLabelText(/Назва/);
    const state = screen.getByTestId('save-state');
    await waitFor(() => expect(state.textContent).toBe('Збережено'));
    const location = screen.getByTestId('location');

    // An unsaved change: the editor's own link to the article asks, and refused, stays.
    fireEvent.change(name, { target: { value: 'Запуск devhub 2' } });
    expect(state.textContent).toBe('Є незбережені зміни');
    fireEvent.click(screen.getByRole('link', { name: 'Переглянути статтю' }));
    expect(confirm).toHaveBeenCalledWith(LEAVE);
    expect(location.textContent).toBe('/blog/7/edit');
    expect(screen.getByLabelText<HTMLInputElement>(/Назва/).value).toBe('Запуск devhub 2');

    // Saved: the same link leaves without asking.
    fireEvent.click(screen.getByRole('button', { name: 'Зберегти' }));
    await waitFor(() => expect(state.textContent).toBe('Збережено'));
    expect(saved).toEqual([expect.objectContaining({ name: 'Запуск devhub 2', version: 3 })]);
    // The Back guard's extra history entry is gone with the unsaved changes.
    await waitFor(() => expect((window.history.state as Record<string, unknown> | null)?.[GUARD_KEY]).toBeUndefined());
    confirm.mockClear();
    fireEvent.click(screen.getByRole('link', { name: 'Переглянути статтю' }));
    expect(await screen.findByText('the article page')).toBeTruthy();
    expect(location.textContent).toBe('/blog/7');
    expect(confirm).not.toHaveBeenCalled();
  });
});
