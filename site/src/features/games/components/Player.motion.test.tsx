import { screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { initTestI18n, renderWithShell } from '../../../test/utils';
import type { Game } from '../api';
import { Player } from './Player';

// Starting a game brings the player into view: smoothly, unless the visitor asked for less
// motion (prefers-reduced-motion is honoured — an explicit smooth scroll would win
// over the stylesheet's scroll-behavior: auto).

const game: Game = { id: 7, name: 'Catcher', path: '/nes/Catcher.nes', console: 'nes', hasImage: false, imagePath: '' };

function stubMotion(reduce: boolean) {
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({
      matches: reduce && query === '(prefers-reduced-motion: reduce)',
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
      onchange: null,
      dispatchEvent: () => false,
    })),
  );
}

let scrolls: ScrollIntoViewOptions[];

beforeAll(async () => {
  await initTestI18n('en');
});
beforeEach(() => {
  scrolls = [];
  Element.prototype.scrollIntoView = function (arg?: boolean | ScrollIntoViewOptions) {
    if (typeof arg === 'object') scrolls.push(arg);
  };
  vi.stubGlobal('fetch', vi.fn(async () => new Response('null', { status: 200, headers: { 'Content-Type': 'application/json' } })));
});
afterEach(() => {
  vi.unstubAllGlobals();
  delete (Element.prototype as { scrollIntoView?: unknown }).scrollIntoView;
});

describe('Player: scrolling into view', () => {
  it.each([
    [false, 'smooth'],
    [true, 'auto'],
  ] as const)('reduced motion %s scrolls with behavior %s', (reduce, behavior) => {
    stubMotion(reduce);
    renderWithShell(<Player game={game} core="fceumm" onClose={() => undefined} />);
    expect(screen.getByTitle(/Catcher/)).toBeTruthy();
    expect(scrolls).toEqual([{ block: 'start', behavior }]);
  });
});
