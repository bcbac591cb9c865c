// The colour theme: light, dark, or the system's (the default). The choice is kept in
// localStorage under THEME_STORAGE_KEY and shown as a class on <html> (is-light / is-dark), which
// the stylesheets' dark rules follow (postcss-dark-theme-class turns each
// `@media (prefers-color-scheme: dark)` block into rules for both). index.html applies the saved
// choice with a tiny inline script before the first paint, so a reload never flashes the other
// theme; this module keeps it in step afterwards.
export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

export const THEME_STORAGE_KEY = 'theme';

export function isTheme(v: unknown): v is Theme {
  return THEMES.includes(v as Theme);
}

/** The saved choice; 'system' when there is none (or storage is unavailable). */
export function savedTheme(): Theme {
  try {
    const v = localStorage.getItem(THEME_STORAGE_KEY);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system';
  }
}

/** Shows theme on the page: the class the stylesheets follow and the native controls' scheme. */
export function applyTheme(theme: Theme, root: HTMLElement = document.documentElement): void {
  root.classList.remove('is-light', 'is-dark');
  if (theme === 'system') {
    root.style.removeProperty('color-scheme');
    return;
  }
  root.classList.add(`is-${theme}`);
  root.style.colorScheme = theme;
}

/** Saves and applies theme ('system' forgets the choice). */
export function setTheme(theme: Theme): void {
  try {
    if (theme === 'system') localStorage.removeItem(THEME_STORAGE_KEY);
    else localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Private modes may refuse storage: the choice still holds for this page.
  }
  applyTheme(theme);
}
