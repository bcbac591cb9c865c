import { describe, expect, it } from 'vitest';
import { extOf, pairUploads } from './romUpload';

const file = (name: string) => new File(['x'], name);

describe('pairUploads', () => {
  it('pairs each ROM with the cover of the same base name', () => {
    const pairs = pairUploads([file('Mario.nes'), file('mario.PNG'), file('Zelda.nes'), file('Other.jpg')]);
    expect(pairs.map((p) => [p.rom.name, p.cover?.name])).toEqual([
      ['Mario.nes', 'mario.PNG'],
      ['Zelda.nes', undefined],
    ]);
  });

  it('reads extensions in lower case, none for dotfiles', () => {
    expect(extOf('A.SFC')).toBe('.sfc');
    expect(extOf('.hidden')).toBe('');
    expect(extOf('noext')).toBe('');
  });
});
