import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { loadOnce } from '../lib/loadOnce';

/** Chunk loading timeout: a page chunk that has not arrived after 120 s fails. */
export const CHUNK_TIMEOUT_MS = 120_000;

export function withTimeout<T>(promise: Promise<T>, ms: number, what = 'chunk'): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Loading ${what} timed out after ${ms} ms`)), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

type PageModule = { default: ComponentType };

/** A page component in its own chunk, with a way to start fetching that chunk before it renders. */
export type LazyPage = LazyExoticComponent<ComponentType> & {
  /** Starts loading the chunk (once; a failed load may be tried again) and returns that load. */
  preload: () => Promise<PageModule>;
};

/**
 * A lazily loaded page (its own chunk) whose module default-exports the page component.
 * preload() and the first render share one load, so a page whose chunk was requested at start-up
 * (preloadRoute) renders as soon as the shell is ready instead of asking for it only then.
 */
export function lazyPage(factory: () => Promise<PageModule>): LazyPage {
  const preload = loadOnce(() => withTimeout(factory(), CHUNK_TIMEOUT_MS));
  return Object.assign(lazy(preload), { preload });
}
