import { defineConfig } from '@playwright/test';
import { browserUse, chromiumLaunch, chromiumProject } from './e2e/browser';
import { baseURL, devhubBin, devhubEnv } from './e2e/env';

// Browser tests against the real binary (`../bin/devhub serve`, or $DEVHUB_BIN) on a free
// loopback port with a fresh data directory, driven through Debian's Chromium.
// Never run `playwright install`: the browser is /usr/bin/chromium.
export default defineConfig({
  testDir: './e2e',
  // The https test has its own config and server (playwright.https.config.ts).
  testIgnore: 'tls.spec.ts',
  fullyParallel: false,
  // Two workers, in CI too: most of a test is waiting on the server or the browser, and the files
  // run side by side against the one instance (each uses its own accounts and names). On this
  // two-core machine under load the suite took 18 minutes with two and 37 with one.
  workers: 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  globalTeardown: './e2e/global-teardown.ts',
  use: { baseURL, ...browserUse, launchOptions: chromiumLaunch() },
  projects: [chromiumProject('chromium')],
  webServer: {
    command: `"${devhubBin}" serve`,
    url: `${baseURL}/healthz`,
    env: devhubEnv,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    // server logs are noisy; DEVHUB_E2E_SERVER_LOG=1 shows them
    stderr: process.env.DEVHUB_E2E_SERVER_LOG ? 'pipe' : 'ignore',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
  },
});
