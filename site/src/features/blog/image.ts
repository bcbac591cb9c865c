// The article image display rule (spec §3): an image is shown only if the value starts with
// http, data:image or /, or is inline SVG markup; anything else gets the placeholder.
// SVG markup is never inserted as HTML: it becomes a data: URL for an <img>, where the browser
// runs none of its scripts.

const SVG_MARKUP = /^(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*<svg(?=[\s>/])[\s\S]*(<\/svg\s*>|\/>)\s*$/i;

export function isInlineSvg(value: string): boolean {
  return SVG_MARKUP.test(value.trim());
}

/** The <img src> for an article's image, or null when the placeholder is to be shown. */
export function articleImageSrc(value: string | null | undefined): string | null {
  const v = (value ?? '').trim();
  if (!v) return null;
  if (isInlineSvg(v)) return `data:image/svg+xml,${encodeURIComponent(v)}`;
  // Schemes are case-insensitive: HTTPS://… and DATA:IMAGE/… are the same URLs (and the server accepts them).
  const lower = v.slice(0, 10).toLowerCase();
  if (lower.startsWith('http') || lower.startsWith('data:image') || v.startsWith('/')) return v;
  return null;
}
