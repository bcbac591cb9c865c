// The article image rule: an image is shown only if the value starts with http,
// data:image or /, or is inline SVG markup; anything else gets the placeholder. The SPA shows
// exactly what the server accepts as image_url (pkg/blog ValidateImageURL) — both are tested
// against testdata/rules/image_url.json — so `//host/x.png`, `data:image/svg+xml,…` or a URL
// with a space are never shown.
// SVG markup is never inserted as HTML: it becomes a data: URL for an <img>, where the browser
// runs none of its scripts.

/** The server's cap on image_url (MaxImageLen in pkg/blog), in UTF-8 bytes. */
export const MAX_IMAGE_BYTES = 512 * 1024;

const SVG_MARKUP = /^(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*<svg(?=[\s>/])[\s\S]*(<\/svg\s*>|\/>)\s*$/i;
const DATA_IMAGE = /^data:image\/(png|jpeg|gif|webp)(;[a-z0-9=._+-]+)*(;base64)?,/i;
// Control characters, the space and the backslash are refused anywhere in a URL.
// eslint-disable-next-line no-control-regex
const BAD_CHAR = /[\u0000-\u0020\u007f\\]/;
const BAD_ESCAPE = /%(?![0-9a-f]{2})/i;

export function isInlineSvg(value: string): boolean {
  return SVG_MARKUP.test(value.trim());
}

/** A % that starts no escape, where the server unescapes (everything but the query). */
function badEscape(v: string): boolean {
  const hash = v.indexOf('#');
  const fragment = hash >= 0 ? v.slice(hash + 1) : '';
  let rest = hash >= 0 ? v.slice(0, hash) : v;
  const q = rest.indexOf('?');
  if (q >= 0) rest = rest.slice(0, q);
  return BAD_ESCAPE.test(rest) || BAD_ESCAPE.test(fragment);
}

/**
 * Whether the server accepts v (already trimmed) as an article's image_url: empty, an absolute
 * http(s) URL with a host, a site path starting with a single '/', a data: URL of a PNG, JPEG,
 * GIF or WebP image, or inline SVG markup.
 */
export function isValidImageUrl(v: string): boolean {
  if (v === '') return true;
  if (new TextEncoder().encode(v).length > MAX_IMAGE_BYTES) return false;
  if (isInlineSvg(v)) return true;
  if (BAD_CHAR.test(v)) return false;
  if (v.startsWith('//')) return false;
  if (v.startsWith('/')) return !badEscape(v);
  if (DATA_IMAGE.test(v)) return true;
  // The host follows the two slashes at once (a browser would read http:///a.png as host a.png).
  if (!/^https?:\/\/[^/?#]/i.test(v) || badEscape(v)) return false;
  try {
    return new URL(v).host !== '';
  } catch {
    return false;
  }
}

/** The <img src> for an article's image, or null when the placeholder is to be shown. */
export function articleImageSrc(value: string | null | undefined): string | null {
  const v = (value ?? '').trim();
  if (!v || !isValidImageUrl(v)) return null;
  return isInlineSvg(v) ? `data:image/svg+xml,${encodeURIComponent(v)}` : v;
}
