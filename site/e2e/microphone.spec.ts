import { readFileSync } from 'node:fs';
import type { Page, Request } from '@playwright/test';
import { baseURL, expect, test } from './fixtures';

// The microphone page against the real binary, with Chromium's fake microphone
// (--use-fake-ui-for-media-stream --use-fake-device-for-media-stream: permission granted, a
// synthetic beep as input). getUserMedia and AudioContext are wrapped before the app loads so the
// test can see every stream and context the page opened and check they are released.

declare global {
  interface Window {
    __media: { streams: MediaStream[]; contexts: AudioContext[] };
  }
}

async function instrument(page: Page, lang: 'en' | 'ru' | 'uk' = 'en') {
  await page.addInitScript((l) => {
    if (!localStorage.getItem('preferredLanguage')) localStorage.setItem('preferredLanguage', l);
    const media = { streams: [] as MediaStream[], contexts: [] as AudioContext[] };
    (window as unknown as { __media: typeof media }).__media = media;
    const md = navigator.mediaDevices;
    const gum = md.getUserMedia.bind(md);
    md.getUserMedia = async (c?: MediaStreamConstraints) => {
      const s = await gum(c);
      media.streams.push(s);
      return s;
    };
    const Base = window.AudioContext;
    window.AudioContext = class extends Base {
      constructor(opts?: AudioContextOptions) {
        super(opts);
        media.contexts.push(this);
      }
    };
  }, lang);
}

/** Every request the page makes; media must never leave the browser. */
function trackRequests(page: Page): Request[] {
  const requests: Request[] = [];
  page.on('request', (r) => requests.push(r));
  return requests;
}

function expectNoMediaSent(requests: Request[]) {
  for (const r of requests) {
    const url = r.url();
    expect(url.startsWith(baseURL) || url.startsWith('blob:') || url.startsWith('data:'), `request left the site: ${url}`).toBe(true);
    expect(r.headers()['content-type'] ?? '', `media upload: ${url}`).not.toMatch(/^(audio|video)\/|multipart/);
    const body = r.postDataBuffer();
    if (body) expect(body.subarray(0, 4).toString('hex'), `webm body sent: ${url}`).not.toBe('1a45dfa3');
  }
}

const deviceList = (page: Page) => page.locator('.mic-devices');

async function selectFirstMic(page: Page) {
  const box = deviceList(page).getByRole('checkbox').first();
  await box.check();
  await expect(page.locator('.mic-monitor')).toHaveCount(1);
}

test('lists the fake microphone with a checkbox and shows its live level and track settings', async ({ page, consoleErrors }) => {
  await instrument(page);
  const requests = trackRequests(page);
  await page.goto('/tools/microphone');
  await expect(page.getByRole('heading', { level: 1, name: 'Microphone' })).toBeVisible();
  const boxes = deviceList(page).getByRole('checkbox');
  await expect(boxes.first()).toBeVisible();
  await expect(deviceList(page)).toContainText(/Fake/i);
  await expect(boxes.first()).not.toBeChecked();
  await expect(page.getByRole('switch', { name: 'Delayed playback' })).toBeDisabled();
  await expect(page.getByText('Available only when one microphone is chosen')).toBeVisible();

  // recording with no microphone chosen: the spec's message
  await page.getByRole('button', { name: 'Record', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText('Recording needs exactly one microphone to be chosen');

  await selectFirstMic(page);
  await expect(page.getByRole('switch', { name: 'Delayed playback' })).toBeEnabled();
  // the fake device beeps: the meter moves off −∞ at some point, and the settings are reported
  await expect(page.getByRole('meter', { name: 'Level' })).not.toHaveAttribute('aria-valuenow', '-100', { timeout: 10_000 });
  // Chromium's fake input is a synthetic beep that reaches full scale, so the clipping warning
  // and a peak hold near 0 dBFS show; a real overloaded microphone is covered by the Vitest of
  // isClipping / nextPeakHold only.
  await expect(page.getByText(/^Clipping!/)).toBeVisible({ timeout: 10_000 });
  const settings = page.locator('.mic-settings');
  await expect(settings).toContainText(/Sample rate\s*\d+ Hz/);
  await expect(settings).toContainText(/Channels\s*\d/);

  // switching a processing option re-acquires the stream with it
  const before = await page.evaluate(() => window.__media.streams.length);
  await page.getByRole('checkbox', { name: 'Echo cancellation' }).uncheck();
  await expect.poll(() => page.evaluate(() => window.__media.streams.length)).toBeGreaterThan(before);
  await expect(settings).toContainText(/Echo cancellation\s*off/);

  expectNoMediaSent(requests);
  expect(consoleErrors).toEqual([]);
});

test('a 1 s recording appears, plays to the end, and downloads as recording_<timestamp>.webm', async ({ page, consoleErrors }) => {
  await instrument(page);
  const requests = trackRequests(page);
  await page.goto('/tools/microphone');
  await selectFirstMic(page);

  await page.getByRole('button', { name: 'Record', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Recording…' })).toBeVisible();
  await page.waitForTimeout(1000); // the length of the recording, not a wait for a condition
  await page.getByRole('button', { name: 'Stop recording' }).click();

  const item = page.getByTestId('recording');
  await expect(item).toHaveCount(1);
  const name = (await item.locator('.mic-recording__name').textContent()) ?? '';
  expect(name).toMatch(/^recording_\d{13}\.webm$/);
  await expect(item).toContainText('Echo cancellation: on'); // the processing it was made with

  // play: the audio element runs, the button turns into Pause; at the end it rewinds and resets
  await item.getByRole('button', { name: 'Play' }).click();
  await expect(item.getByRole('button', { name: 'Pause' })).toBeVisible();
  await expect.poll(() => item.locator('audio').evaluate((a: HTMLAudioElement) => a.currentTime)).toBeGreaterThan(0);
  await expect(item.getByRole('button', { name: 'Play' })).toBeVisible({ timeout: 10_000 });
  expect(await item.locator('audio').evaluate((a: HTMLAudioElement) => a.currentTime)).toBe(0);

  const [download] = await Promise.all([page.waitForEvent('download'), item.getByRole('link', { name: 'Download' }).click()]);
  expect(download.suggestedFilename()).toBe(name);
  const bytes = readFileSync((await download.path())!);
  expect(bytes.subarray(0, 4).toString('hex')).toBe('1a45dfa3'); // EBML magic: a webm file
  expect(bytes.length).toBeGreaterThan(1000);

  // a second recording goes in front; delete removes it
  await page.getByRole('button', { name: 'Record', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Stop recording' })).toBeVisible();
  await page.getByRole('button', { name: 'Stop recording' }).click();
  await expect(item).toHaveCount(2);
  const first = (await item.first().locator('.mic-recording__name').textContent()) ?? '';
  expect(Number(first.match(/\d+/)![0])).toBeGreaterThan(Number(name.match(/\d+/)![0]));
  await item.first().getByRole('button', { name: `Delete ${first}` }).click();
  await expect(item).toHaveCount(1);
  await expect(item.locator('.mic-recording__name')).toHaveText(name);

  expectNoMediaSent(requests);
  expect(consoleErrors).toEqual([]);
});

test('noise measurement prints the average level as a percentage with 2 decimals', async ({ page, consoleErrors }) => {
  await instrument(page);
  await page.goto('/tools/microphone');
  const measure = page.getByRole('button', { name: 'Measure noise level' });
  await expect(measure).toBeDisabled(); // no microphone chosen
  await selectFirstMic(page);
  await expect(measure).toBeEnabled();
  await measure.click();
  const measuring = page.getByRole('button', { name: 'Measuring…' });
  await expect(measuring).toBeDisabled();
  const result = page.getByTestId('noise-result');
  await expect(result).toHaveText(/: \d{1,3}\.\d{2}% \((−?\d+\.\d dBFS|−∞ dBFS)\)$/, { timeout: 10_000 });
  await expect(measure).toBeEnabled();
  expect(consoleErrors).toEqual([]);
});

test('leaving the page stops every track and closes the audio context', async ({ page, consoleErrors }) => {
  await instrument(page);
  await page.goto('/tools/microphone');
  await selectFirstMic(page);
  await page.getByRole('switch', { name: 'Delayed playback' }).check();
  await page.getByRole('button', { name: 'Record', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Stop recording' })).toBeVisible();
  const live = await page.evaluate(() => ({
    streams: window.__media.streams.length,
    liveTracks: window.__media.streams.flatMap((s) => s.getTracks()).filter((t) => t.readyState === 'live').length,
    contexts: window.__media.contexts.length,
  }));
  expect(live.streams).toBeGreaterThanOrEqual(2); // the permission probe and the selected microphone
  expect(live.liveTracks).toBeGreaterThanOrEqual(1);
  expect(live.contexts).toBeGreaterThanOrEqual(1);

  // leave inside the single-page app (the JavaScript world survives, so we can look)
  await page.evaluate(() => {
    history.pushState({}, '', '/tools');
    dispatchEvent(new PopStateEvent('popstate'));
  });
  await expect(page).toHaveURL(/\/tools$/);
  await expect.poll(() =>
    page.evaluate(() => ({
      live: window.__media.streams.flatMap((s) => s.getTracks()).filter((t) => t.readyState !== 'ended').length,
      open: window.__media.contexts.filter((c) => c.state !== 'closed').length,
    })),
  ).toEqual({ live: 0, open: 0 });
  expect(consoleErrors).toEqual([]);
});

const RAW_KEY = /\b(?:devices|monitor|settings|controls|delay|noise|recordings|errors|processing|toolsItems)\.[a-zA-Z]+\b/;

for (const [lang, heading, record] of [
  ['uk', 'Мікрофон', 'Записати'],
  ['ru', 'Микрофон', 'Записать'],
  ['en', 'Microphone', 'Record'],
] as const) {
  test(`the page in ${lang}: translated, no raw keys, no console errors`, async ({ page, consoleErrors }) => {
    await instrument(page, lang);
    await page.goto('/tools/microphone');
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await selectFirstMic(page);
    await page.getByRole('button', { name: record, exact: true }).click();
    await expect(page.locator('.mic-recording-dot')).toBeVisible();
    await page.locator('.mic-controls .btn').click();
    await expect(page.getByTestId('recording')).toHaveCount(1);
    const text = await page.locator('main').innerText();
    expect(text).not.toMatch(RAW_KEY);
    expect(consoleErrors).toEqual([]);
  });
}

test('on a 320 px phone the level figures fit the width (no sideways scrolling)', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 700 });
  await instrument(page, 'ru');
  await page.goto('/tools/microphone');
  await selectFirstMic(page);
  await expect(page.locator('.mic-meter__figures dd').first()).toContainText('dBFS');
  // Six columns (three labels, three values) in one row pushed the last value past the screen edge.
  const overflow = await page.locator('.mic-meter__figures').evaluate((dl) => {
    const right = Math.max(...Array.from(dl.children, (c) => c.getBoundingClientRect().right));
    return right - dl.getBoundingClientRect().right;
  });
  expect(overflow).toBeLessThanOrEqual(0);
});
