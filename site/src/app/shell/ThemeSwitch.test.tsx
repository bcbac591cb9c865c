import { fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initTestI18n, renderWithShell } from '../../test/utils';
import { ThemeSwitch } from './ThemeSwitch';

beforeAll(async () => {
  await initTestI18n('en');
});
afterEach(() => {
  localStorage.clear();
  document.documentElement.className = '';
  document.documentElement.style.removeProperty('color-scheme');
});

describe('ThemeSwitch', () => {
  it('starts from the saved choice and names it', () => {
    localStorage.setItem('theme', 'dark');
    renderWithShell(<ThemeSwitch />);
    expect(screen.getByRole('button', { name: 'Theme: Dark' })).toBeTruthy();
  });

  it('applies and remembers a choice, and "system" forgets it', () => {
    renderWithShell(<ThemeSwitch />);
    fireEvent.click(screen.getByRole('button', { name: 'Theme: System' }));
    fireEvent.click(screen.getByRole('menuitemradio', { name: 'Dark' }));
    expect(localStorage.getItem('theme')).toBe('dark');
    expect(document.documentElement.classList.contains('is-dark')).toBe(true);
    expect(document.documentElement.style.colorScheme).toBe('dark');

    fireEvent.click(screen.getByRole('button', { name: 'Theme: Dark' }));
    fireEvent.click(screen.getByRole('menuitemradio', { name: 'Light' }));
    expect(document.documentElement.classList.contains('is-light')).toBe(true);
    expect(document.documentElement.classList.contains('is-dark')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Theme: Light' }));
    const system = screen.getByRole('menuitemradio', { name: 'System' });
    expect(system.getAttribute('aria-checked')).toBe('false');
    fireEvent.click(system);
    expect(localStorage.getItem('theme')).toBeNull();
    expect(document.documentElement.className).toBe('');
  });
});
