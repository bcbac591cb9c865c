import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { linkify } from './linkify';

function html(text: string) {
  const { container } = render(<p>{linkify(text)}</p>);
  return container.innerHTML;
}

describe('linkify', () => {
  it.each([
    ['see https://example.com/a?b=1.', '<p>see <a href="https://example.com/a?b=1" target="_blank" rel="noopener noreferrer nofollow ugc">https://example.com/a?b=1</a>.</p>'],
    ['www.example.org', '<p><a href="https://www.example.org" target="_blank" rel="noopener noreferrer nofollow ugc">www.example.org</a></p>'],
    ['plain', '<p>plain</p>'],
  ])('%s', (text, want) => {
    expect(html(text)).toBe(want);
  });

  it('keeps markup and other schemes as text', () => {
    const out = html('<img src=x onerror=alert(1)> javascript:alert(1) data:text/html,hi');
    expect(out).not.toContain('<img');
    expect(out).not.toContain('<a');
    expect(out).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });
});
