import { describe, expect, it } from 'vitest';
import { clampSidebarWidth, isMobileWidth, SIDEBAR_MIN, SIDEBAR_START } from './sidebar';

describe('sidebar width', () => {
  it.each([
    // [wanted, window width, result]
    [SIDEBAR_START, 1280, 300],
    [150, 1280, 200],
    [-50, 1280, 200],
    [900, 1280, 768],
    [768, 1280, 768],
    [769, 1280, 768],
    [500.6, 1280, 501],
    [300, 400, 240],
    [300, 300, SIDEBAR_MIN],
  ])('clamp(%s, window %s) = %s', (wanted, win, want) => {
    expect(clampSidebarWidth(wanted, win)).toBe(want);
  });

  it('mobile is a window of 768 px or less', () => {
    expect(isMobileWidth(768)).toBe(true);
    expect(isMobileWidth(769)).toBe(false);
  });
});
