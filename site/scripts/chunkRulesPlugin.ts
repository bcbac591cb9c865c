// Heavy libraries only where they are used: a build check. Every page of the router
// (each dynamic import in src/app/routes.tsx) loads the entry chunk, its own chunk and what those
// import statically; none of that may hold a library listed in HEAVY unless the page is one that
// uses it at once. What a page needs only later (tus-js-client for a large upload, qrcode for a
// QR code, the emulator once a game starts) must be a dynamic import, and a change that pulls one
// into a page's first load fails `npm run build` with the page, the library and the chunk.
import type { Plugin } from 'vite';

/** Library (node_modules package) → the pages (file names without extension) allowed to load it at once. */
export const HEAVY: Record<string, readonly string[]> = {
  nostalgist: [], // the emulator: its own page (emulator.html), opened when a game starts
  'tus-js-client': [], // resumable uploads: loaded when a large file is picked
  qrcode: [], // QR codes: loaded when one is shown
  'ua-parser-js': ['IpPage', 'ProfileRoute'], // the browser report and the profile's sessions list show it at once
};

/** The part of a Rollup/Rolldown output chunk this check reads. */
export interface ChunkInfo {
  fileName: string;
  facadeModuleId: string | null;
  imports: string[];
  moduleIds: string[];
}

export interface Violation {
  page: string;
  library: string;
  chunk: string;
}

function pageName(id: string): string {
  return (id.split(/[\\/]/).pop() ?? id).replace(/\.[^.]+$/, '');
}

function packageOf(moduleId: string): string | null {
  const m = /[\\/]node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)[\\/]/.exec(moduleId);
  return m ? m[1].replace(/\\/g, '/') : null;
}

/** Chunks loaded with `start`, following static imports. */
function closure(start: ChunkInfo[], byFile: Map<string, ChunkInfo>): ChunkInfo[] {
  const seen = new Map<string, ChunkInfo>();
  const todo = [...start];
  while (todo.length) {
    const c = todo.pop()!;
    if (seen.has(c.fileName)) continue;
    seen.set(c.fileName, c);
    for (const f of c.imports) {
      const next = byFile.get(f);
      if (next) todo.push(next);
    }
  }
  return [...seen.values()];
}

/**
 * The heavy libraries each page loads at once against `heavy`'s allowances. `entry` is the
 * index.html entry chunk (every page loads it); `pages` the module ids of the router's pages.
 */
export function findViolations(
  chunks: ChunkInfo[],
  entry: ChunkInfo,
  pages: string[],
  heavy: Record<string, readonly string[]> = HEAVY,
): Violation[] {
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const out: Violation[] = [];
  for (const id of pages) {
    const own = chunks.find((c) => c.facadeModuleId === id);
    const page = pageName(id);
    for (const c of closure(own ? [entry, own] : [entry], byFile)) {
      const libs = new Set(c.moduleIds.map(packageOf).filter((p): p is string => p !== null));
      for (const lib of libs) {
        if (lib in heavy && !heavy[lib].includes(page)) out.push({ page, library: lib, chunk: c.fileName });
      }
    }
  }
  return out;
}

export function chunkRulesPlugin(routesModule: string): Plugin {
  return {
    name: 'devhub-chunk-rules',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((o) => o.type === 'chunk');
      const entry = chunks.find((c) => c.isEntry && c.facadeModuleId?.endsWith('/index.html'));
      const pages = this.getModuleInfo(routesModule)?.dynamicallyImportedIds ?? [];
      if (!entry || pages.length === 0) {
        this.error(`chunk rules: no index.html entry or no pages imported by ${routesModule}`);
      }
      const found = findViolations(chunks, entry, [...pages]);
      if (found.length) {
        this.error(
          'heavy libraries in a page’s first load (make them dynamic imports, or allow them in scripts/chunkRulesPlugin.ts):\n' +
            found.map((v) => `  ${v.page} loads ${v.library} (in ${v.chunk})`).join('\n'),
        );
      }
    },
  };
}
