import { describe, expect, it } from 'vitest';
import en from './locales/en.json';
import ru from './locales/ru.json';
import uk from './locales/uk.json';
import { PRESET_CATEGORIES } from './presets';
import { NOISE_COLORS, WAVEFORMS } from './tone';

/** Every leaf key as a dotted path. */
function keys(obj: object, prefix = ''): string[] {
  return Object.entries(obj).flatMap(([k, v]) => (v && typeof v === 'object' ? keys(v, `${prefix}${k}.`) : [`${prefix}${k}`])).sort();
}

describe('tone locales', () => {
  it('uk and ru have exactly the keys of en, none empty', () => {
    expect(keys(uk)).toEqual(keys(en));
    expect(keys(ru)).toEqual(keys(en));
    for (const bundle of [en, ru, uk]) expect(JSON.stringify(bundle)).not.toMatch(/:\s*""/);
  });

  it('name every category, waveform and noise colour the code uses', () => {
    for (const c of PRESET_CATEGORIES) {
      expect(en.categories).toHaveProperty(c.id);
      expect(en.descriptions).toHaveProperty(c.id);
    }
    for (const w of WAVEFORMS) expect(en.waveforms).toHaveProperty(w);
    for (const n of NOISE_COLORS) expect(en.sources).toHaveProperty(n);
  });

  it("keep the spec's wording (§2, §5, §8)", () => {
    expect(en.title).toBe('Tone generator');
    expect(en.errors.audioInit).toBe('Audio context initialization error');
    expect(en.errors.playback).toBe('Sound playback error');
    expect(en.errors.range).toBe('Frequency must be from 1 to 21000 Hz');
    expect(ru.errors.range).toBe('Частота должна быть от 1 до 21000 Гц');
  });
});
