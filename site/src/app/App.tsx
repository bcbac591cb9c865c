import { QueryClientProvider } from '@tanstack/react-query';
import { startTransition, useEffect, useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { BrowserRouter, useRoutes } from 'react-router';
import { AuthProvider } from '../lib/auth';
import { i18n, initI18n } from '../lib/i18n';
import { appQueryClient } from '../lib/queryClient';
import { ToastProvider } from '../lib/toast';
import { routes } from './routes';
import { I18nReadyContext } from './shellContext';
import { FullScreenLoader, useLoaderVisible } from './shell/Loader';

/**
 * The full-screen loader stays until localization is ready plus 100 ms. Its own component: its
 * timer re-renders only the loader, not the whole app below App.
 */
function AppLoader({ ready }: { ready: boolean }) {
  return useLoaderVisible(ready) ? <FullScreenLoader /> : null;
}

function AppRoutes() {
  return useRoutes(routes);
}

export function App() {
  const [ready, setReady] = useState(i18n.isInitialized);

  useEffect(() => {
    let alive = true;
    void initI18n().then(() => {
      // The whole shell and the page render now: in slices (a transition), not as one long task.
      if (alive) startTransition(() => setReady(true));
    });
    return () => {
      alive = false;
    };
  }, []);

  return (
    <QueryClientProvider client={appQueryClient}>
      <I18nextProvider i18n={i18n}>
        <AuthProvider>
          <ToastProvider>
            <I18nReadyContext.Provider value={ready}>
              <BrowserRouter>
                <AppRoutes />
              </BrowserRouter>
            </I18nReadyContext.Provider>
            <AppLoader ready={ready} />
          </ToastProvider>
        </AuthProvider>
      </I18nextProvider>
    </QueryClientProvider>
  );
}
