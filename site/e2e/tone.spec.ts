import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

// Tone generator against the real
// binary. Nothing test-only ships in the page: this file wraps the browser's own AudioContext
// before the page loads, so every context the page creates sends its output through an
// AnalyserNode on the way to the speakers, and every oscillator start is recorded.

declare global {
  interface Window {
    __tone: {
      contexts: Array<AudioContext & { __tap: AnalyserNode; __sides: [AnalyserNode, AnalyserNode] }>;
      starts: Array<{ when: number; type: OscillatorType; frequency: number }>;
      stops: number[];
    };
  }
}

function tapAudio() {
  const Original = window.AudioContext;
  const realDestination = Object.getOwnPropertyDescriptor(BaseAudioContext.prototype, 'destination')!.get!;
  window.__tone = { contexts: [], starts: [], stops: [] };
  class Tapped extends Original {
    __tap: AnalyserNode;
    __sides: [AnalyserNode, AnalyserNode];
    constructor(options?: AudioContextOptions) {
      super(options);
      this.__tap = this.createAnalyser();
      this.__tap.fftSize = 32768;
      this.__tap.smoothingTimeConstant = 0;
      this.__tap.connect(realDestination.call(this) as AudioNode);
      // the left and right channels apart, for the balance
      const split = this.createChannelSplitter(2);
      this.__tap.connect(split);
      this.__sides = [this.createAnalyser(), this.createAnalyser()];
      this.__sides.forEach((an, i) => split.connect(an, i));
      window.__tone.contexts.push(this);
    }
    override get destination() {
      return (this.__tap ?? realDestination.call(this)) as unknown as AudioDestinationNode;
    }
  }
  window.AudioContext = Tapped;
  const start = OscillatorNode.prototype.start;
  OscillatorNode.prototype.start = function (this: OscillatorNode, when?: number) {
    window.__tone.starts.push({ when: when ?? 0, type: this.type, frequency: this.frequency.value });
    return start.call(this, when);
  };
  const stop = AudioScheduledSourceNode.prototype.stop;
  AudioScheduledSourceNode.prototype.stop = function (this: AudioScheduledSourceNode, when?: number) {
    window.__tone.stops.push(when ?? 0);
    return stop.call(this, when);
  };
}

/** The RMS level in dBFS of the left and right channels of the last context's output. */
function channelLevels(page: Page) {
  return page.evaluate(() => {
    const ctx = window.__tone.contexts.at(-1)!;
    return ctx.__sides.map((an) => {
      const data = new Float32Array(an.fftSize);
      an.getFloatTimeDomainData(data);
      const rms = Math.sqrt(data.reduce((s, x) => s + x * x, 0) / data.length);
      return rms > 0 ? 20 * Math.log10(rms) : -Infinity;
    });
  });
}

/** Mean level in dB of the output's spectrum between two frequencies. */
function bandLevel(page: Page, from: number, to: number) {
  return page.evaluate(
    ([lo, hi]) => {
      const ctx = window.__tone.contexts.at(-1)!;
      const an = ctx.__tap;
      const data = new Float32Array(an.frequencyBinCount);
      an.getFloatFrequencyData(data);
      const hz = ctx.sampleRate / an.fftSize;
      const bins = data.slice(Math.round(lo / hz), Math.round(hi / hz));
      return bins.reduce((s, x) => s + x, 0) / bins.length;
    },
    [from, to],
  );
}

/** The loudest bin of the last context's output and the width of one bin, in Hz. */
function spectralPeak(page: Page) {
  return page.evaluate(() => {
    const ctx = window.__tone.contexts.at(-1);
    if (!ctx) return { hz: 0, bin: 0, db: -Infinity };
    const an = ctx.__tap;
    const data = new Float32Array(an.frequencyBinCount);
    an.getFloatFrequencyData(data);
    let peak = 1;
    for (let i = 2; i < data.length; i++) if (data[i] > data[peak]) peak = i;
    return { hz: (peak * ctx.sampleRate) / an.fftSize, bin: ctx.sampleRate / an.fftSize, db: data[peak] };
  });
}

/** Waits until the output's spectral peak is a real tone within one FFT bin of `hz`. */
async function expectPeakAt(page: Page, hz: number) {
  await expect
    .poll(
      async () => {
        const p = await spectralPeak(page);
        return p.db > -60 && Math.abs(p.hz - hz) <= p.bin;
      },
      { message: `spectral peak at ${hz} Hz`, timeout: 10_000 },
    )
    .toBe(true);
}

const playToggle = (page: Page) => page.locator('button.tone-play');

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('preferredLanguage', 'en'));
  await page.addInitScript(tapAudio);
});

test.describe('tone generator', () => {
  test('really plays 440 Hz, then 1 kHz after typing 1000 in the exact-frequency field', async ({ page, consoleErrors }) => {
    await page.goto('/tools/tone_generator');
    await expect(page.getByRole('heading', { level: 1, name: 'Tone generator' })).toBeVisible();
    await expect(playToggle(page)).toContainText('440 Hz');
    await expect(playToggle(page)).toContainText('Sine · Mid');
    await playToggle(page).click();
    await expect(playToggle(page)).toHaveAttribute('aria-pressed', 'true');
    await expectPeakAt(page, 440);

    await page.getByRole('button', { name: /Exact frequency/ }).click();
    await page.getByRole('spinbutton', { name: 'Frequency, Hz' }).fill('1000');
    await page.getByRole('button', { name: 'Set', exact: true }).click();
    await expect(playToggle(page)).toContainText('1.0 kHz');
    await expect(playToggle(page)).toContainText('Sine · High');
    await expectPeakAt(page, 1000);
    // changed live: still the one oscillator
    expect(await page.evaluate(() => window.__tone.starts.length)).toBe(1);
    await expect(page).toHaveURL(/[?&]f=1000(&|$)/);

    await playToggle(page).click();
    await expect(playToggle(page)).toHaveAttribute('aria-pressed', 'false');
    expect(consoleErrors).toEqual([]);
  });

  test('30000 shows the spec error and disables play until it clears after 5 s', async ({ page }) => {
    await page.goto('/tools/tone_generator');
    await page.getByRole('button', { name: /Exact frequency/ }).click();
    await page.getByRole('spinbutton', { name: 'Frequency, Hz' }).fill('30000');
    await page.getByRole('button', { name: 'Set', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveText('Frequency must be from 1 to 21000 Hz');
    await expect(playToggle(page)).toBeDisabled();
    await expect(playToggle(page)).toContainText('440 Hz');
    await expect(page.getByRole('alert')).toBeHidden({ timeout: 8_000 });
    await expect(playToggle(page)).toBeEnabled();
  });

  test('a preset loop plays 10 cycles 200 ms apart, counting down, then stops', async ({ page, consoleErrors }) => {
    await page.goto('/tools/tone_generator');
    // every category starts closed
    const toggles = page.locator('.tone-presets__toggle');
    await expect(toggles).toHaveCount(9);
    for (const el of await toggles.all()) await expect(el).toHaveAttribute('aria-expanded', 'false');

    // record every text the stop button shows, as the page renders it
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { __loopTexts: string[] }).__loopTexts = seen;
      new MutationObserver(() => {
        const text = document.querySelector('[data-testid="tone-stop-loop"]')?.textContent;
        if (text && seen.at(-1) !== text) seen.push(text);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.getByRole('button', { name: /Mid-high/ }).click();
    await page.getByRole('button', { name: 'Loop 1.0 kHz' }).click();
    const stopLoop = page.getByRole('button', { name: /^Stop loop/ });
    await expect(stopLoop).toBeVisible();
    await expect(stopLoop).toBeHidden({ timeout: 10_000 });

    const texts = await page.evaluate(() => (window as unknown as { __loopTexts: string[] }).__loopTexts);
    expect(texts).toEqual(Array.from({ length: 10 }, (_, i) => `Stop loop (${10 - i} left)`));
    const starts = await page.evaluate(() => window.__tone.starts);
    expect(starts).toHaveLength(10);
    expect(starts.every((s) => s.frequency === 1000)).toBe(true);
    for (let i = 1; i < starts.length; i++) expect(starts[i].when - starts[i - 1].when).toBeCloseTo(0.2, 6);
    await expect(page.getByRole('button', { name: 'Loop 1.0 kHz' }).locator('xpath=..')).toHaveAttribute('aria-current', 'true');
    await expect(playToggle(page)).toContainText('1.0 kHz');
    expect(consoleErrors).toEqual([]);
  });

  test('keyboard shortcuts and the octave buttons change the frequency', async ({ page }) => {
    await page.goto('/tools/tone_generator');
    const freq = page.getByTestId('tone-frequency');
    await expect(freq).toHaveText('440 Hz');
    await page.keyboard.press('ArrowRight');
    await expect(freq).toHaveText('441 Hz');
    await page.keyboard.press('Shift+ArrowRight');
    await expect(freq).toHaveText('451 Hz');
    await page.keyboard.press('Control+ArrowLeft');
    await expect(freq).toHaveText('450.99 Hz');
    await page.keyboard.press('Shift+ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Control+ArrowRight');
    await expect(freq).toHaveText('440 Hz');
    await page.keyboard.press('ArrowUp');
    await expect(freq).toHaveText('466.16 Hz');
    await expect(page.getByTestId('tone-note')).toHaveText('Note A♯4, 0 cents');
    await page.keyboard.press('ArrowDown');
    await expect(freq).toHaveText('440 Hz');
    await page.getByRole('button', { name: /One octave up/ }).click();
    await expect(freq).toHaveText('880 Hz');
    await page.getByRole('button', { name: /One octave down/ }).click();
    await page.getByRole('button', { name: /One octave down/ }).click();
    await expect(freq).toHaveText('220 Hz');
    await expect(page.getByText('Keys: Space play/stop')).toBeVisible();

    // Space plays (the page itself focused, not a button) and the tone is the one shown
    await page.locator('h1').click();
    await page.keyboard.press('Space');
    await expect(playToggle(page)).toHaveAttribute('aria-pressed', 'true');
    await expectPeakAt(page, 220);
    await page.keyboard.press('Space');
    await expect(playToggle(page)).toHaveAttribute('aria-pressed', 'false');
  });

  test('?f=1000&w=square starts there and plays a 1 kHz square wave', async ({ page, consoleErrors }) => {
    await page.goto('/tools/tone_generator?f=1000&w=square');
    await expect(page.getByTestId('tone-frequency')).toHaveText('1.0 kHz');
    await expect(playToggle(page)).toContainText('Square · High');
    await expect(page.getByRole('button', { name: 'Square', exact: true })).toHaveAttribute('aria-pressed', 'true');
    await playToggle(page).click();
    await expectPeakAt(page, 1000);
    expect(await page.evaluate(() => window.__tone.starts.map((s) => [s.type, s.frequency]))).toEqual([['square', 1000]]);
    expect(consoleErrors).toEqual([]);
  });

  test('a link with an out-of-range frequency falls back to 440 Hz with the spec error', async ({ page }) => {
    await page.goto('/tools/tone_generator?f=30000&w=triangle');
    await expect(page.getByRole('alert')).toHaveText('Frequency must be from 1 to 21000 Hz');
    await expect(page.getByTestId('tone-frequency')).toHaveText('440 Hz');
    await expect(playToggle(page)).toContainText('Triangle');
    await expect(playToggle(page)).toBeDisabled();
  });

  test('the custom modal keeps an invalid value open and plays a valid one', async ({ page, consoleErrors }) => {
    await page.goto('/tools/tone_generator');
    await page.getByRole('button', { name: 'Custom', exact: true }).click();
    await page.getByRole('button', { name: 'Custom frequency…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Custom frequency' });
    await dialog.getByRole('spinbutton').fill('50000');
    await dialog.getByRole('button', { name: 'Play' }).click();
    await expect(dialog).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
    await dialog.getByRole('spinbutton').fill('1234.5');
    await dialog.getByRole('button', { name: 'Play' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('tone-frequency')).toHaveText('1.2 kHz');
    await expectPeakAt(page, 1234.5);
    await expect(page.getByRole('button', { name: 'Play 1.2 kHz' })).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });

  test('a sweep really rises from A to B and stops by itself', async ({ page }) => {
    await page.goto('/tools/tone_generator');
    await page.getByRole('spinbutton', { name: 'From, Hz' }).fill('300');
    await page.getByRole('spinbutton', { name: 'To, Hz' }).fill('3000');
    await page.getByRole('spinbutton', { name: 'Duration, s' }).fill('3');
    await page.getByLabel('Scale').selectOption('linear');
    await page.getByRole('button', { name: 'Start sweep' }).click();
    await expect(page.getByRole('button', { name: 'Stop sweep' })).toBeVisible();
    // the output's peak passes 1 kHz on the way up, then the sweep ends on its own
    await expect.poll(async () => (await spectralPeak(page)).hz, { timeout: 10_000 }).toBeGreaterThan(1000);
    await expect(page.getByRole('button', { name: 'Start sweep' })).toBeVisible({ timeout: 10_000 });
    await expect(playToggle(page)).toHaveAttribute('aria-pressed', 'false');
  });

  test('a one-shot tone stops by itself after 0.1 s', async ({ page }) => {
    await page.goto('/tools/tone_generator');
    await page.getByRole('checkbox', { name: 'Continuous playback' }).uncheck();
    await expect(page.getByText('Off: each play is a short 0.1 s beep.')).toBeVisible();
    await playToggle(page).click();
    await expect(playToggle(page)).toHaveAttribute('aria-pressed', 'false');
    const { starts, stops } = await page.evaluate(() => window.__tone);
    expect(starts).toHaveLength(1);
    expect(stops[0] - starts[0].when).toBeCloseTo(0.1, 1);
  });

  test('balance sends the tone to the left, both or right channel', async ({ page }) => {
    await page.goto('/tools/tone_generator');
    await playToggle(page).click();
    await expectPeakAt(page, 440);
    const heard = async () => (await channelLevels(page)).map((db) => db > -40);
    await expect.poll(heard).toEqual([true, true]);
    await page.getByRole('button', { name: 'Left', exact: true }).click();
    await expect.poll(heard).toEqual([true, false]);
    await page.getByRole('button', { name: 'Right', exact: true }).click();
    await expect.poll(heard).toEqual([false, true]);
    await page.getByRole('button', { name: 'Both', exact: true }).click();
    await expect.poll(heard).toEqual([true, true]);
  });

  test('white noise is flat, brown noise falls off towards the highs', async ({ page }) => {
    await page.goto('/tools/tone_generator');
    await page.getByRole('button', { name: 'White noise' }).click();
    await playToggle(page).click();
    await expect(playToggle(page)).toContainText('White noise');
    const tilt = async () => (await bandLevel(page, 200, 400)) - (await bandLevel(page, 8000, 12000));
    await expect.poll(async () => Math.abs(await tilt())).toBeLessThan(6);
    await page.getByRole('button', { name: 'Brown noise' }).click();
    await expect(playToggle(page)).toContainText('Brown noise');
    await expect.poll(tilt, { timeout: 10_000 }).toBeGreaterThan(20);
  });

  test('leaving the page closes the audio context', async ({ page }) => {
    await page.goto('/tools/tone_generator');
    await playToggle(page).click();
    await expectPeakAt(page, 440);
    expect(await page.evaluate(() => window.__tone.contexts.map((c) => c.state))).toEqual(['running']);
    await page.locator('a.brand').first().click();
    await expect(page).toHaveURL(/\/$/);
    await expect
      .poll(() => page.evaluate(() => window.__tone.contexts.map((c) => c.state)))
      .toEqual(['closed']);
  });

  for (const [lang, title, error, play] of [
    ['uk', 'Генератор тону', 'Частота має бути від 1 до 21000 Гц', 'Грати'],
    ['ru', 'Генератор тона', 'Частота должна быть от 1 до 21000 Гц', 'Играть'],
    ['en', 'Tone generator', 'Frequency must be from 1 to 21000 Hz', 'Play'],
  ] as const) {
    test(`in ${lang}: translated, no raw key, no console error`, async ({ page, consoleErrors }) => {
      await page.addInitScript((l) => localStorage.setItem('preferredLanguage', l), lang);
      await page.goto('/tools/tone_generator');
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
      await expect(playToggle(page)).toContainText(play);
      for (const el of await page.locator('.tone-presets__toggle').all()) await el.click();
      await page.locator('.tone-presets__category').last().getByRole('button').nth(1).click(); // the custom modal
      await expect(page.getByRole('dialog')).toBeVisible();
      const dialogText = await page.getByRole('dialog').innerText();
      await page.keyboard.press('Escape');
      await page.locator('[aria-controls="tone-exact"]').click();
      await page.locator('#tone-exact input').fill('30000');
      await page.locator('#tone-exact button[type="submit"]').click();
      await expect(page.getByRole('alert')).toHaveText(error);
      const text = (await page.getByRole('main').innerText()) + dialogText;
      expect(text).not.toMatch(/\b(categories|descriptions|waveforms|sources|balance|bands|sweepModes|errors)\.[a-zA-Z]+/);
      expect(text).not.toMatch(/\b(playPreset|loopPreset|keysHint|customOpen|stopLoop|bandSlider|exactLabel)\b/);
      expect(consoleErrors).toEqual([]);
    });
  }
});

test('the generator has no accessibility violations (axe)', async ({ page }) => {
  // Four axe runs over the page: each takes seconds of CPU on a loaded machine.
  test.setTimeout(120_000);
  const { default: AxeBuilder } = await import('@axe-core/playwright');
  await page.goto('/tools/tone_generator');
  await page.getByRole('button', { name: /Mid-high/ }).click();
  await page.getByRole('button', { name: /Exact frequency/ }).click();
  const violations = async () =>
    (await new AxeBuilder({ page }).include('.tone-page').analyze()).violations.map(
      (v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
  expect(await violations()).toEqual([]);
  // playing (the button filled with the band colour), in each band
  await playToggle(page).click();
  for (const f of ['100', '440', '5000']) {
    await page.getByRole('spinbutton', { name: 'Frequency, Hz' }).fill(f);
    await page.getByRole('button', { name: 'Set', exact: true }).click();
    await expect(playToggle(page)).toHaveAttribute('aria-pressed', 'true');
    expect(await violations()).toEqual([]);
  }
});

test('on a 320 px phone every preset row keeps its play and loop buttons on screen', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 700 });
  await page.addInitScript(() => localStorage.setItem('preferredLanguage', 'ru'));
  await page.goto('/tools/tone_generator');
  const toggles = page.locator('.tone-presets__toggle');
  await expect(toggles).toHaveCount(9);
  for (let i = 0; i < (await toggles.count()); i++) await toggles.nth(i).click();
  await expect(page.locator('.tone-preset').first()).toBeVisible();
  // A long word in a description ("присутствие;") widened its column and pushed the loop button past the edge.
  const past = await page.locator('.tone-preset').evaluateAll((rows) =>
    rows.filter((row) => Array.from(row.children).some((c) => c.getBoundingClientRect().right > row.getBoundingClientRect().right + 0.5)).length,
  );
  expect(past).toBe(0);
});
