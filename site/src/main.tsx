import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { preloadRoute } from './app/routes';
import { initI18n } from './lib/i18n';
import { quietServerRender } from './lib/ssr';
import './app/styles.css';
import './components/ui/ui.css';
import './app/shell/shell.css';

quietServerRender();

// The page's own chunk starts loading now, alongside language detection, not after it.
preloadRoute(window.location.pathname);
// Language detection (the visitor's country, the interface's translations) starts now too, not
// once React has rendered the loader: the first screen waits for it. App awaits the same start.
void initI18n();

// A transition lets React render the first screen in slices, yielding to the browser between
// them, instead of one long task that holds the main thread (mobile total blocking time).
const root = createRoot(document.getElementById('root')!);
startTransition(() => {
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
