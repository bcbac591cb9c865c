import { describe, expect, it } from 'vitest';
import { resolveCore, validParams } from './protocol';

// As /cores/index.json lists the shipped cores (roms.SpecCoreNames gives the aliases).
const cores = [
  { name: 'fceumm', aliases: ['nes'] },
  { name: 'gambatte', aliases: ['gb', 'gbc'] },
  { name: 'genesis_plus_gx', aliases: ['segaCD', 'segaGG', 'segaMD', 'segaMS'] },
  { name: 'mgba', aliases: ['gba'] },
  { name: 'snes9x', aliases: ['snes'] },
  { name: 'stella2014' },
];

describe('resolveCore', () => {
  it.each([
    ['fceumm', 'fceumm'],
    ['nes', 'fceumm'],
    ['snes', 'snes9x'],
    ['segaMD', 'genesis_plus_gx'],
    ['segaGG', 'genesis_plus_gx'],
    ['gba', 'mgba'],
    ['gb', 'gambatte'],
    ['gbc', 'gambatte'],
    ['stella2014', 'stella2014'],
  ])('%s runs on %s', (name, want) => {
    expect(resolveCore(cores, name)?.name).toBe(want);
  });

  it.each(['psx', 'n64', 'nosuchcore', 'NES', ''])('%s is not installed', (name) => {
    expect(resolveCore(cores, name)).toBeUndefined();
  });
});

describe('validParams', () => {
  it.each([
    ['nes', '/romserv/nes/a.nes', true],
    ['segaMD', '/romserv/megadrive/a.md', true],
    ['genesis_plus_gx', '/romserv/megadrive/a.md', true],
    ['sega-md', '/romserv/megadrive/a.md', false],
    ['', '/romserv/nes/a.nes', false],
    ['nes', 'https://example.com/a.nes', false],
    ['nes', '/romserv/../secret', false],
    ['nes', '/romserv//evil', false],
    ['nes', '/romserv/nes/%2E%2E/x', false],
  ])('core %s, url %s → %s', (core, url, want) => {
    expect(validParams(core, url)).toBe(want);
  });
});
