// Shared helpers for component tests: an initialised i18n, the shell's providers and a fetch stub.
import { QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { vi } from 'vitest';
import { AuthProvider } from '../lib/auth';
import { i18n, i18nOptions } from '../lib/i18n';
import { createQueryClient } from '../lib/queryClient';
import type { Language } from '../lib/languageDetection';
import en from '../locales/en.json';
import ru from '../locales/ru.json';
import uk from '../locales/uk.json';

/** All of the shell's translations at once (the app loads the interface language's only). */
export const shellResources = { en: { translation: en }, uk: { translation: uk }, ru: { translation: ru } };

export async function initTestI18n(lang: Language = 'en') {
  if (!i18n.isInitialized) await i18n.init(i18nOptions(lang, shellResources));
  else await i18n.changeLanguage(lang);
  return i18n;
}

type Handler = (req: { url: string; method: string; body: unknown; headers: Headers }) => Response | Promise<Response>;

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/**
 * Stubs global fetch. `routes` maps "METHOD /path" or "/path" to a handler; anything else → 404.
 * Returns the mock so tests can inspect calls.
 */
export function stubFetch(routes: Record<string, Handler> = {}) {
  const mock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const path = url.replace(/^https?:\/\/[^/]+/, '').split('?')[0];
    const method = (init.method ?? 'GET').toUpperCase();
    const headers = new Headers(init.headers);
    let body: unknown = init.body;
    if (typeof body === 'string') {
      try {
        body = JSON.parse(body);
      } catch {
        /* not JSON */
      }
    }
    const handler = routes[`${method} ${path}`] ?? routes[path];
    if (!handler) return json({ status: 404, message: 'Not found', data: null }, 404);
    return handler({ url, method, body, headers });
  });
  vi.stubGlobal('fetch', mock);
  return mock;
}

/** Shows the current location so tests can assert navigation. */
export function LocationProbe() {
  const loc = useLocation();
  return <output data-testid="location">{loc.pathname + loc.search}</output>;
}

/**
 * A fresh query client for one test: no retries, nothing cached from an earlier test, and no
 * garbage-collection timers (the client dies with the test), so tests that count or run timers
 * see only their component's own.
 */
export function testQueryClient() {
  const client = createQueryClient();
  client.setDefaultOptions({ queries: { ...client.getDefaultOptions().queries, retry: false, gcTime: Infinity } });
  return client;
}

/** Renders ui with i18n and a fresh query client only (no router, no auth). */
export function renderWithQuery(ui: ReactElement): RenderResult & { client: ReturnType<typeof testQueryClient> } {
  const client = testQueryClient();
  const wrap = (node: ReactElement) => (
    <QueryClientProvider client={client}>
      <I18nextProvider i18n={i18n}>{node}</I18nextProvider>
    </QueryClientProvider>
  );
  const result = render(wrap(ui));
  return { ...result, client, rerender: (next: ReactNode) => result.rerender(wrap(<>{next}</>)) };
}

export function renderWithShell(
  ui: ReactElement,
  { route = '/', path = '*', extra }: { route?: string; path?: string; extra?: ReactNode } = {},
): RenderResult & { client: ReturnType<typeof testQueryClient> } {
  // a fresh query client per render: no cached answer leaks from one test into the next
  const client = testQueryClient();
  const result = render(
    <QueryClientProvider client={client}>
      <I18nextProvider i18n={i18n}>
        <AuthProvider>
          <MemoryRouter initialEntries={[route]}>
            <Routes>
              <Route
                path={path}
                element={
                  <>
                    {ui}
                    <LocationProbe />
                    {extra}
                  </>
                }
              />
            </Routes>
          </MemoryRouter>
        </AuthProvider>
      </I18nextProvider>
    </QueryClientProvider>,
  );
  return { ...result, client };
}
