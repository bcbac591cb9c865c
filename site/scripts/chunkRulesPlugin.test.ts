import { describe, expect, it } from 'vitest';
import { findViolations, type ChunkInfo } from './chunkRulesPlugin';

const nm = (pkg: string) => `/site/node_modules/${pkg}/dist/index.js`;
const chunk = (fileName: string, moduleIds: string[], imports: string[] = [], facadeModuleId: string | null = null): ChunkInfo => ({
  fileName,
  facadeModuleId,
  imports,
  moduleIds,
});

const HEAVY = { 'tus-js-client': [], 'ua-parser-js': ['IpPage'] };
const FILES = '/site/src/features/files/pages/FileCloudPage.tsx';
const IP = '/site/src/features/tools/ip/IpPage.tsx';
const HOME = '/site/src/features/portfolio/pages/HomePage.tsx';

describe('chunk rules', () => {
  const entry = chunk('index.js', [nm('react-dom'), '/site/src/main.tsx'], ['shared.js'], '/site/index.html');
  const shared = chunk('shared.js', [nm('@tanstack/query-core')]);

  it('passes pages that load heavy libraries only dynamically or where allowed', () => {
    const chunks = [
      entry,
      shared,
      chunk('FileCloudPage.js', [FILES], ['shared.js'], FILES),
      chunk('tus.js', [nm('tus-js-client'), '/site/src/features/files/tus.ts'], [], '/site/src/features/files/tus.ts'),
      chunk('IpPage.js', [IP, nm('ua-parser-js')], [], IP),
      chunk('HomePage.js', [HOME], [], HOME),
    ];
    expect(findViolations(chunks, entry, [FILES, IP, HOME], HEAVY)).toEqual([]);
  });

  it('names the page, the library and the chunk it came in, also through a shared chunk', () => {
    const chunks = [
      entry,
      shared,
      chunk('FileCloudPage.js', [FILES], ['api.js'], FILES),
      chunk('api.js', ['/site/src/features/files/api.ts', nm('tus-js-client')], ['shared.js']),
      chunk('HomePage.js', [HOME, nm('ua-parser-js')], [], HOME),
    ];
    expect(findViolations(chunks, entry, [FILES, HOME], HEAVY)).toEqual([
      { page: 'FileCloudPage', library: 'tus-js-client', chunk: 'api.js' },
      { page: 'HomePage', library: 'ua-parser-js', chunk: 'HomePage.js' },
    ]);
  });

  it('a heavy library in the entry chunk counts against every page, scoped packages included', () => {
    const heavyEntry = chunk('index.js', [nm('@scope/big')], [], '/site/index.html');
    const chunks = [heavyEntry, chunk('HomePage.js', [HOME], [], HOME)];
    expect(findViolations(chunks, heavyEntry, [HOME], { '@scope/big': [] })).toEqual([
      { page: 'HomePage', library: '@scope/big', chunk: 'index.js' },
    ]);
  });
});
