import { lazy, type ComponentType } from 'react';

/** Chunk loading timeout (spec §9): a page chunk that has not arrived after 120 s fails. */
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

/** A lazily loaded page (its own chunk) whose module default-exports the page component. */
export function lazyPage(factory: () => Promise<{ default: ComponentType }>) {
  return lazy(() => withTimeout(factory(), CHUNK_TIMEOUT_MS));
}
