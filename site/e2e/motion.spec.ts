import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

// prefers-reduced-motion ("Responsive"): with "reduce" the drawer's slide, the
// skeletons' shimmer, the spinner and the hover transitions no longer move; without it they do
// (so the check below sees the motion it turns off).

/** The longest animation and transition, in ms, of the elements matching sel. */
function motionOf(page: Page, sel: string) {
  return page.locator(sel).first().evaluate((el) => {
    const ms = (v: string) => Math.max(...v.split(',').map((p) => (p.trim().endsWith('ms') ? parseFloat(p) : parseFloat(p) * 1000)));
    const s = getComputedStyle(el);
    return {
      animation: s.animationName === 'none' ? 0 : ms(s.animationDuration),
      transition: ms(s.transitionDuration),
    };
  });
}

for (const reducedMotion of ['reduce', 'no-preference'] as const) {
  test(`with prefers-reduced-motion: ${reducedMotion} the drawer, skeletons and controls ${reducedMotion === 'reduce' ? 'stand still' : 'move'}`, async ({
    page,
  }) => {
    await page.emulateMedia({ reducedMotion });
    await page.setViewportSize({ width: 375, height: 812 });
    await page.addInitScript(() => localStorage.setItem('preferredLanguage', 'en'));
    // hold the article list back: its skeleton stays on screen until released
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    await page.route(/\/api\/blog(\?|$)/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/blog');
    await expect(page.locator('.skeleton__box').first()).toBeVisible();
    const skeleton = await motionOf(page, '.skeleton__box');
    release();
    await expect(page.locator('main [aria-busy="true"]')).toHaveCount(0);

    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(page.getByRole('navigation', { name: 'Menu' })).toBeVisible();
    const drawer = await motionOf(page, '.sidebar');
    const button = await motionOf(page, '.btn');

    if (reducedMotion === 'reduce') {
      expect(skeleton.animation).toBeLessThanOrEqual(0.01);
      expect(drawer.animation).toBeLessThanOrEqual(0.01);
      expect(button.transition).toBeLessThanOrEqual(0.01);
    } else {
      expect(skeleton.animation).toBeGreaterThan(100);
      expect(drawer.animation).toBeGreaterThan(100);
      expect(button.transition).toBeGreaterThan(100);
    }
  });
}
