import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../lib/i18n';
import { initTestI18n } from '../../../test/utils';
import '../i18n';
import { ArticleContent, splitCodeBlocks } from './ArticleContent';

// As the server renders it: chroma's classes, a newline at the end of the code, a nested block.
const HTML = [
  '<p>Intro with <a href="https://example.com">a link</a>.</p>',
  '<pre tabindex="0" class="chroma"><code class="language-go" data-lang="go"><span class="line"><span class="kd">func</span> main() {}\n</span></code></pre>',
  '<ul><li>item<pre><code>nested\n</code></pre></li></ul>',
  '<pre><code>plain text\n</code></pre>',
  '<ul><li><input checked="" disabled="" type="checkbox"> done item</li><li><p><input disabled="" type="checkbox"> open item</p></li></ul>',
].join('\n');

function renderContent(html = HTML) {
  return render(
    <I18nextProvider i18n={i18n}>
      <ArticleContent html={html} />
    </I18nextProvider>,
  );
}

function stubClipboard(writeText: (text: string) => Promise<void>) {
  const spy = vi.fn(writeText);
  Object.defineProperty(navigator, 'clipboard', { value: { writeText: spy }, configurable: true });
  return spy;
}

beforeAll(async () => {
  await initTestI18n('en');
});

afterEach(() => {
  vi.useRealTimers();
  Reflect.deleteProperty(navigator, 'clipboard');
});

describe('splitCodeBlocks', () => {
  it('cuts the HTML at top-level code blocks only, keeping the rest as it came', () => {
    const parts = splitCodeBlocks(HTML);
    expect(parts.map((p) => p.kind)).toEqual(['html', 'code', 'html', 'code', 'html']);
    expect(parts[0]).toMatchObject({ html: expect.stringContaining('<a href="https://example.com">a link</a>') });
    expect(parts[1]).toMatchObject({ className: 'chroma', lang: 'go', html: expect.stringContaining('<span class="kd">func</span>') });
    expect(parts[2]).toMatchObject({ html: expect.stringContaining('<pre><code>nested') });
    expect(parts[3]).toMatchObject({ className: '', lang: '' });
  });
});

describe('ArticleContent', () => {
  it('makes every code block a focusable region named after its language', () => {
    const { container } = renderContent();
    const go = screen.getByRole('region', { name: 'Code: go' });
    expect(go.tagName).toBe('PRE');
    expect(go.tabIndex).toBe(0);
    expect(go.className).toBe('chroma');
    expect(go.querySelector('.kd')?.textContent).toBe('func');
    // the nested one keeps its place in the list but is reachable by keyboard too
    const nested = container.querySelector('li pre') as HTMLElement;
    expect(nested.getAttribute('tabindex')).toBe('0');
    expect(nested.getAttribute('role')).toBe('region');
    expect(screen.getAllByRole('region', { name: 'Code' })).toHaveLength(2);
    expect(screen.getByRole('link', { name: 'a link' })).toBeTruthy();
    // a task list's checkbox is named by its item
    expect((screen.getByRole('checkbox', { name: 'done item' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('checkbox', { name: 'open item' }) as HTMLInputElement).checked).toBe(false);
  });

  it('copies the code without its trailing newline and announces it, then resets', async () => {
    const writeText = stubClipboard(async () => {});
    renderContent();
    const block = screen.getByRole('region', { name: 'Code: go' }).parentElement!;
    vi.useFakeTimers();
    await act(async () => {
      fireEvent.click(within(block).getByRole('button', { name: 'Copy' }));
    });
    expect(writeText).toHaveBeenCalledWith('func main() {}');
    expect(within(block).getByRole('button', { name: 'Copied' })).toBeTruthy();
    expect(within(block).getByRole('status').textContent).toBe('Code copied to the clipboard');
    await act(async () => {
      vi.advanceTimersByTime(2000);
    });
    expect(within(block).getByRole('button', { name: 'Copy' })).toBeTruthy();
    expect(within(block).getByRole('status').textContent).toBe('');
  });

  it('says so when the clipboard refuses', async () => {
    stubClipboard(async () => {
      throw new DOMException('denied', 'NotAllowedError');
    });
    renderContent();
    const block = screen.getByRole('region', { name: 'Code: go' }).parentElement!;
    await act(async () => {
      fireEvent.click(within(block).getByRole('button', { name: 'Copy' }));
    });
    expect(within(block).getByRole('status').textContent).toBe('Could not copy the code');
    expect(within(block).getByRole('button', { name: 'Copy' })).toBeTruthy();
  });

  it('speaks the interface language', async () => {
    await initTestI18n('uk');
    try {
      renderContent();
      expect(screen.getByRole('region', { name: 'Код: go' })).toBeTruthy();
      expect(screen.getAllByRole('button', { name: 'Копіювати' })).toHaveLength(2);
    } finally {
      await initTestI18n('en');
    }
  });
});
