// The browser every suite runs in: Debian's Chromium (never `playwright install`), headless, with
// a fake camera and microphone, the pages in English and UTC. Shared by playwright.config.ts and
// playwright.https.config.ts.

export const browserUse = {
  locale: 'en-US',
  timezoneId: 'UTC',
  trace: 'off',
  screenshot: 'only-on-failure',
} as const;

/** Chromium's launch options: its path ($CHROMIUM_PATH or Debian's) and flags, then `extraArgs`. */
export function chromiumLaunch(...extraArgs: string[]) {
  return {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      ...extraArgs,
    ],
  };
}

/** One Chromium project of the given name, in a desktop-sized window. */
export const chromiumProject = (name: string) => ({
  name,
  use: { browserName: 'chromium' as const, viewport: { width: 1280, height: 800 } },
});
