import { describe, expect, it } from 'vitest';
import { applyFormat, imageMarkdown, shortcutFormat, type Edit } from './markdownEdit';

const sel = (text: string, start: number, end = start): Edit => ({ text, start, end });

describe('markdown edits', () => {
  it.each([
    ['bold', sel('a word b', 2, 6), 'a **word** b', 'word'],
    ['italic', sel('a word b', 2, 6), 'a _word_ b', 'word'],
    ['code', sel('a word b', 2, 6), 'a `word` b', 'word'],
    ['bold', sel('ab', 1), 'a**text**b', 'text'],
    ['heading', sel('one\ntwo', 5), 'one\n## two', ''],
    ['list', sel('one\ntwo', 0, 7), '- one\n- two', 'one\n- two'],
  ] as const)('%s on %j', (format, e, text, selected) => {
    const r = applyFormat(e, format, 'text');
    expect(r.text).toBe(text);
    expect(r.text.slice(r.start, r.end)).toBe(selected);
  });

  it('a link selects its address to type over', () => {
    const r = applyFormat(sel('see docs', 4, 8), 'link', 'text');
    expect(r.text).toBe('see [docs](https://)');
    expect(r.text.slice(r.start, r.end)).toBe('https://');
  });

  it('an uploaded image goes in at the caret with its alt text selected', () => {
    const r = imageMarkdown(sel('ab', 1), 'alt', '/api/files/3/download');
    expect(r.text).toBe('a![alt](/api/files/3/download)b');
    expect(r.text.slice(r.start, r.end)).toBe('alt');
  });

  it.each([
    [{ key: 'b', ctrlKey: true, metaKey: false, altKey: false }, 'bold'],
    [{ key: 'I', ctrlKey: false, metaKey: true, altKey: false }, 'italic'],
    [{ key: 'k', ctrlKey: true, metaKey: false, altKey: false }, 'link'],
    [{ key: 'b', ctrlKey: false, metaKey: false, altKey: false }, null],
    [{ key: 'b', ctrlKey: true, metaKey: false, altKey: true }, null],
  ])('shortcut %j', (ev, want) => {
    expect(shortcutFormat(ev)).toBe(want);
  });
});
