import { render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { quietServerRender, SERVER_RENDER_ID, useReleaseServerRender } from './ssr';

function Page({ ready }: { ready: boolean }) {
  useReleaseServerRender(ready);
  return null;
}

function serverLayer() {
  const el = document.createElement('div');
  el.id = SERVER_RENDER_ID;
  el.innerHTML = '<h1>From the server</h1>';
  document.body.appendChild(el);
  return el;
}

afterEach(() => document.getElementById(SERVER_RENDER_ID)?.remove());

describe('the server-rendered layer', () => {
  it('is hidden from assistive technology once the app runs, and removed when the page is ready', async () => {
    const el = serverLayer();
    quietServerRender();
    expect(el.getAttribute('aria-hidden')).toBe('true');
    expect(el.hasAttribute('inert')).toBe(true);
    const { rerender } = render(<Page ready={false} />);
    await new Promise((r) => setTimeout(r, 50));
    expect(document.getElementById(SERVER_RENDER_ID)).not.toBeNull();
    rerender(<Page ready />);
    await expect.poll(() => document.getElementById(SERVER_RENDER_ID)).toBeNull();
  });
});
