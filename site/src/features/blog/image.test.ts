import { describe, expect, it } from 'vitest';
import rules from '../../../../testdata/rules/image_url.json';
import { articleImageSrc, isInlineSvg, isValidImageUrl, MAX_IMAGE_BYTES } from './image';

describe('the image rule table (testdata/rules/image_url.json, shared with pkg/blog)', () => {
  it.each(rules.cases.map((c) => [c.value, c.valid, c.shown] as const))('%j: valid %s, shown %s', (value, valid, shown) => {
    expect(isValidImageUrl(value.trim())).toBe(valid);
    expect(articleImageSrc(value) !== null).toBe(shown);
    // The table itself: exactly the valid values that are not blank are shown.
    expect(shown).toBe(valid && value.trim() !== '');
  });

  it('refuses what is longer than the server keeps', () => {
    const long = '/' + 'a'.repeat(MAX_IMAGE_BYTES);
    expect(isValidImageUrl(long)).toBe(false);
    expect(isValidImageUrl(long.slice(0, MAX_IMAGE_BYTES))).toBe(true);
  });
});

describe('articleImageSrc: an image only when the value starts with http', () => {
  it.each([
    ['https://example.com/a.png', 'https://example.com/a.png'],
    ['http://example.com/a.png', 'http://example.com/a.png'],
    ['/images/a.png', '/images/a.png'],
    ['data:image/png;base64,iVBORw0KGgo=', 'data:image/png;base64,iVBORw0KGgo='],
    ['  /trimmed.png  ', '/trimmed.png'],
    ['HTTPS://EXAMPLE.COM/A.PNG', 'HTTPS://EXAMPLE.COM/A.PNG'],
    ['DATA:IMAGE/PNG;base64,iVBORw0KGgo=', 'DATA:IMAGE/PNG;base64,iVBORw0KGgo='],
  ])('shows %s', (value, src) => {
    expect(articleImageSrc(value)).toBe(src);
  });

  it.each([[''], [null], [undefined], ['images/a.png'], ['ftp://x/a.png'], ['javascript:alert(1)'], ['data:text/html,<b>x</b>'], ['<img src=x onerror=alert(1)>'], ['<svg><script>']])(
    'uses the placeholder for %s',
    (value) => {
      expect(articleImageSrc(value)).toBeNull();
    },
  );

  it('turns inline SVG markup into a data: URL, never markup', () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><circle r="4"/></svg>';
    const src = articleImageSrc(svg);
    expect(src).toBe(`data:image/svg+xml,${encodeURIComponent(svg)}`);
    expect(src).not.toContain('<');
    expect(src).not.toContain('"');
  });

  it('recognises SVG markup with an XML declaration or a self-closing root', () => {
    expect(isInlineSvg('<?xml version="1.0"?>\n<svg viewBox="0 0 1 1"></svg>')).toBe(true);
    expect(isInlineSvg('<svg/>')).toBe(true);
    expect(isInlineSvg('<svgx></svgx>')).toBe(false);
    expect(isInlineSvg('text <svg></svg>')).toBe(false);
  });
});
