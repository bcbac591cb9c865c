import { useEffect, useState } from 'react';

/** Text of the full-screen loader: shown before localization exists, so fixed (spec: Russian). */
export const LOADER_TEXT = 'Загрузка...';
/** The loader stays this long after localization is ready. */
export const LOADER_DELAY_MS = 100;

export function FullScreenLoader() {
  return (
    <div className="app-loader" role="status" aria-live="polite" data-testid="app-loader">
      <span className="spinner" aria-hidden="true" />
      {/* Russian whatever the document's language: said so, for screen readers and hyphenation */}
      <span lang="ru">{LOADER_TEXT}</span>
    </div>
  );
}

export function PageLoader({ label }: { label: string }) {
  return (
    <div className="page-loader" role="status" aria-live="polite">
      <span className="spinner spinner--small" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

/** True until `ready` has been true for `delayMs` (the loader's lifetime). */
export function useLoaderVisible(ready: boolean, delayMs = LOADER_DELAY_MS): boolean {
  const [visible, setVisible] = useState(true);
  useEffect(() => {
    if (!ready) return;
    const id = setTimeout(() => setVisible(false), delayMs);
    return () => clearTimeout(id);
  }, [ready, delayMs]);
  return visible;
}
