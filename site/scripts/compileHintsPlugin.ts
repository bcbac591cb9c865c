// The site's entry chunk (React, the router, TanStack Query, i18next and the shell) runs almost
// whole on every page load, so V8 is told to compile all its functions at once: with the magic
// comment `//# allFunctionsCalledOnLoad` first in the file (V8's explicit compile hints, Chromium
// 136+) they are compiled while the file streams in, off the main thread, instead of each one on
// the main thread at its first call. Browsers without the feature read a comment.
import type { Plugin } from 'vite';

export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/** The part of a Rollup/Rolldown output chunk this plugin reads and writes. */
export interface HintedChunk {
  type: 'chunk';
  isEntry: boolean;
  facadeModuleId: string | null;
  code: string;
  map: { mappings: string } | null;
}

/** Puts the hint first in the chunk (and its source map one line down); true when it was added. */
export function addCompileHint(chunk: HintedChunk): boolean {
  if (chunk.code.startsWith(COMPILE_HINT)) return false;
  chunk.code = `${COMPILE_HINT}\n${chunk.code}`;
  if (chunk.map) chunk.map.mappings = `;${chunk.map.mappings}`;
  return true;
}

/**
 * Marks the entry chunk of `page` (an HTML entry's file name, e.g. index.html). It runs after
 * Vite's own output steps, which put their helpers at the top of the chunk: the hint counts only
 * as the file's first line.
 */
export function compileHintsPlugin(page = 'index.html'): Plugin {
  return {
    name: 'devhub-compile-hints',
    apply: 'build',
    enforce: 'post',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const entry = Object.values(bundle).find(
          (o) => o.type === 'chunk' && o.isEntry && (o.facadeModuleId?.endsWith(`/${page}`) ?? false),
        );
        if (!entry || entry.type !== 'chunk') this.error(`compile hints: no entry chunk for ${page}`);
        addCompileHint(entry as HintedChunk);
      },
    },
  };
}
