// Text edits the editor's toolbar and shortcuts make: each takes the text and the selection and
// returns the new text and selection, so they are plain functions (tested beside this file) and
// the textarea only applies the result.

export interface Edit {
  text: string;
  start: number;
  end: number;
}

export type Format = 'bold' | 'italic' | 'link' | 'heading' | 'code' | 'list' | 'image';

/** Wraps the selection in before/after (or inserts them around a placeholder). */
function wrap(e: Edit, before: string, after: string, placeholder: string): Edit {
  const selected = e.text.slice(e.start, e.end) || placeholder;
  const text = e.text.slice(0, e.start) + before + selected + after + e.text.slice(e.end);
  const start = e.start + before.length;
  return { text, start, end: start + selected.length };
}

/** Puts prefix at the start of every line the selection touches; a caret moves with its text. */
function prefixLines(e: Edit, prefix: string): Edit {
  const lineStart = e.text.lastIndexOf('\n', e.start - 1) + 1;
  const nl = e.text.indexOf('\n', e.end);
  const lineEnd = nl < 0 ? e.text.length : nl;
  const block = e.text.slice(lineStart, lineEnd);
  const lines = block.split('\n').map((l) => (l.startsWith(prefix) ? l : prefix + l));
  const out = lines.join('\n');
  const text = e.text.slice(0, lineStart) + out + e.text.slice(lineEnd);
  const start = e.start + prefix.length;
  return { text, start, end: e.start === e.end ? start : e.end + (out.length - block.length) };
}

/** Applies a toolbar format to the selection. */
export function applyFormat(e: Edit, f: Format, placeholder: string): Edit {
  switch (f) {
    case 'bold':
      return wrap(e, '**', '**', placeholder);
    case 'italic':
      return wrap(e, '_', '_', placeholder);
    case 'code':
      return e.text.slice(e.start, e.end).includes('\n')
        ? wrap(e, '```\n', '\n```', placeholder)
        : wrap(e, '`', '`', placeholder);
    case 'link': {
      const r = wrap(e, '[', '](https://)', placeholder);
      // the address is selected, ready to type over
      const at = r.end + 2;
      return { text: r.text, start: at, end: at + 'https://'.length };
    }
    case 'image':
      return wrap(e, '![', '](https://)', placeholder);
    case 'heading':
      return prefixLines(e, '## ');
    case 'list':
      return prefixLines(e, '- ');
  }
}

/** Inserts text at the selection (replacing it); the caret ends after it. */
export function insertAt(e: Edit, insert: string): Edit {
  const text = e.text.slice(0, e.start) + insert + e.text.slice(e.end);
  const at = e.start + insert.length;
  return { text, start: at, end: at };
}

/** The Markdown of an uploaded image, with its alt text selected for the writer to fill. */
export function imageMarkdown(e: Edit, alt: string, url: string): Edit {
  const md = `![${alt}](${url})`;
  const r = insertAt(e, md);
  const altStart = e.start + 2;
  return { text: r.text, start: altStart, end: altStart + alt.length };
}

/** The format a keyboard shortcut asks for (Ctrl/⌘ + B, I, K), or null. */
export function shortcutFormat(ev: { key: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean }): Format | null {
  if (!(ev.ctrlKey || ev.metaKey) || ev.altKey) return null;
  switch (ev.key.toLowerCase()) {
    case 'b':
      return 'bold';
    case 'i':
      return 'italic';
    case 'k':
      return 'link';
  }
  return null;
}
