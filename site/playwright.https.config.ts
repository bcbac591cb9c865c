import { defineConfig } from '@playwright/test';
import { browserUse, chromiumLaunch, chromiumProject } from './e2e/browser';
import { domain, spki } from './e2e/tls-env';

// The https browser test: devhub serving its own TLS (server.tls files) on devhub.test, which
// Chromium resolves to 127.0.0.1 and whose certificate it trusts by its SPKI hash, certificate
// errors otherwise counting (ignoreHTTPSErrors false). The spec starts its own server (it reads
// the first-run link from its log), so this config has no webServer and leaves the main suite's
// alone. `make e2e` runs it after the main suite.
export default defineConfig({
  testDir: './e2e',
  testMatch: 'tls.spec.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    ...browserUse,
    ignoreHTTPSErrors: false,
    launchOptions: chromiumLaunch(`--host-resolver-rules=MAP ${domain} 127.0.0.1`, `--ignore-certificate-errors-spki-list=${spki}`),
  },
  projects: [chromiumProject('chromium-https')],
});
