import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// Lazy chunks and dynamic imports are slow on a busy 2-core machine: wait up to 5 s in findBy/waitFor.
configure({ asyncUtilTimeout: 5000 });

// jsdom has no layout: scrolling is a no-op here.
window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;

afterEach(() => {
  cleanup();
  localStorage.clear();
});
