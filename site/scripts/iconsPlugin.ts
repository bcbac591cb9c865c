// The portfolio's icon set: every simple-icons logo (CC0, pinned in package.json) is
// copied into dist/icons/<slug>.svg at build time, with icons/generic.svg for names the set does
// not have. The binary serves them like any other static file and `devhub content check` checks
// content/profile.yaml's icon names against the same directory — so an owner may name any
// simple-icons slug without a rebuild, and nothing is fetched from a third-party host.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Plugin } from 'vite';

const GENERIC =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" role="img"><title>Icon</title>' +
  '<path d="M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm0 2a8 8 0 1 1 0 16 8 8 0 0 1 0-16Zm-1 4v5h2V8h-2Zm0 6v2h2v-2h-2Z"/></svg>\n';

export function iconsPlugin(): Plugin {
  return {
    name: 'devhub-icons',
    apply: 'build',
    generateBundle() {
      const pkg = createRequire(import.meta.url).resolve('simple-icons');
      const dir = join(dirname(pkg), 'icons');
      const slugs: string[] = [];
      for (const file of readdirSync(dir)) {
        if (!file.endsWith('.svg')) continue;
        this.emitFile({ type: 'asset', fileName: `icons/${file}`, source: readFileSync(join(dir, file)) });
        slugs.push(file.slice(0, -'.svg'.length));
      }
      // The names alone, for the portfolio editor's icon search.
      this.emitFile({ type: 'asset', fileName: 'icons/index.json', source: JSON.stringify(slugs.sort()) });
      this.emitFile({ type: 'asset', fileName: 'icons/generic.svg', source: GENERIC });
    },
  };
}
