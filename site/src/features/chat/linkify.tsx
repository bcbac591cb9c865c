import type { ReactNode } from 'react';

// http(s) URLs and www. addresses, up to whitespace; trailing punctuation is left out.
const URL_RE = /\b(?:https?:\/\/|www\.)[^\s<>"']+/gi;
const TRAILING = /[.,:;!?)\]}'"»]+$/;

/**
 * The text as React nodes with its links made links: only http(s) addresses become anchors, and
 * everything else stays text (React escapes it), so a message can never carry markup.
 */
export function linkify(text: string): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  for (const m of text.matchAll(URL_RE)) {
    let url = m[0];
    const trail = TRAILING.exec(url);
    if (trail) url = url.slice(0, -trail[0].length);
    const start = m.index ?? 0;
    if (start > last) out.push(text.slice(last, start));
    const href = url.toLowerCase().startsWith('www.') ? `https://${url}` : url;
    out.push(
      <a key={start} href={href} target="_blank" rel="noopener noreferrer nofollow ugc">
        {url}
      </a>,
    );
    last = start + url.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}
