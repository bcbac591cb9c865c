import { describe, expect, it } from 'vitest';
import { addCompileHint, COMPILE_HINT, type HintedChunk } from './compileHintsPlugin';

const chunk = (code: string, mappings?: string): HintedChunk => ({
  type: 'chunk',
  isEntry: true,
  facadeModuleId: '/site/index.html',
  code,
  map: mappings === undefined ? null : { mappings },
});

describe('addCompileHint', () => {
  it('puts the hint on the first line and moves the source map one line down', () => {
    const c = chunk('const a=1;\nexport{a};', 'AAAA;AACA');
    expect(addCompileHint(c)).toBe(true);
    expect(c.code.split('\n')[0]).toBe(COMPILE_HINT);
    expect(c.code.split('\n').slice(1).join('\n')).toBe('const a=1;\nexport{a};');
    expect(c.map?.mappings).toBe(';AAAA;AACA');
  });

  it('adds it once', () => {
    const c = chunk('x();');
    addCompileHint(c);
    expect(addCompileHint(c)).toBe(false);
    expect(c.code).toBe(`${COMPILE_HINT}\nx();`);
  });
});
