import { act, screen } from '@testing-library/react';
import { useState } from 'react';
import { beforeAll, describe, expect, it } from 'vitest';
import { initTestI18n, renderWithShell } from '../../../test/utils';
import { collectBrowserInfo, type BrowserEnv, type BrowserInfo } from './browserInfo';
import { BrowserPanel, PerformancePanel, WebApiPanel } from './Panels';

// The big panels render again only for a new report: the page renders again when the WebRTC and
// readiness checks answer, and those answers must not redo a few hundred rows.

beforeAll(async () => {
  await initTestI18n('en');
});

const env: BrowserEnv = {
  nav: { userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0.0.0', language: 'en', languages: ['en'], cookieEnabled: true } as unknown as Navigator,
  global: { fetch: () => 0 },
  screen: { width: 1920, height: 1080, colorDepth: 24 },
  viewport: { width: 1280, height: 720 },
  location: { origin: 'http://127.0.0.1', pathname: '/tools/ip', search: '', hash: '' },
  referrer: '',
  performance: undefined,
  timezone: 'Europe/Kyiv',
  timezoneOffset: -120,
  createCanvas: () => null,
};

/** The report, counting the renders that read it (each panel reads `system` or `performance` or a group once). */
async function countedInfo() {
  const info = await collectBrowserInfo(env, async () => {});
  const reads = { system: 0, performance: 0, webAPIs: 0 };
  for (const key of Object.keys(reads) as (keyof typeof reads)[]) {
    const value = info[key];
    Object.defineProperty(info, key, {
      get: () => {
        reads[key]++;
        return value;
      },
    });
  }
  return { info, reads };
}

describe('IP report panels', () => {
  it('are not rendered again when the page renders again with the same report', async () => {
    const { info, reads } = await countedInfo();
    let rerender: (() => void) | undefined;
    let replace: ((next: BrowserInfo) => void) | undefined;
    function Host() {
      const [, setTick] = useState(0);
      const [shown, setShown] = useState(info);
      rerender = () => setTick((n) => n + 1);
      replace = setShown;
      return (
        <>
          <BrowserPanel info={shown} />
          <PerformancePanel info={shown} />
          <WebApiPanel info={shown} />
        </>
      );
    }
    const { container } = renderWithShell(<Host />);
    expect((await screen.findByText('Browser, system and connection')).id).toBe('ip-browser');
    const first = { ...reads };
    expect(first.system).toBeGreaterThan(0);
    expect(first.performance).toBeGreaterThan(0);
    expect(first.webAPIs).toBeGreaterThan(0);

    act(() => rerender!());
    expect(reads).toEqual(first);

    // a new report (Refresh) is rendered
    const { info: next } = await countedInfo();
    act(() => replace!({ ...next, system: { ...next.system, language: 'uk' } }));
    expect(container.querySelector('[aria-labelledby="ip-browser"]')!.textContent).toContain('Languageuk');
  });
});
