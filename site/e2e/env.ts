// The one devhub instance the browser tests run against: the real binary on a free loopback
// port with a fresh temporary data directory. Computed once in Playwright's main process and
// handed to its workers through the environment (DEVHUB_E2E_*), so every file sees the same.
import { cpSync, existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePortNow } from './ports';

const siteDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoDir = resolve(siteDir, '..');

process.env.DEVHUB_E2E_PORT ||= freePortNow();
process.env.DEVHUB_E2E_DATA_DIR ||= mkdtempSync(join(tmpdir(), 'devhub-e2e-'));

/** The binary under test: $DEVHUB_BIN, default ../bin/devhub (built by `make build`). */
export const devhubBin = resolve(siteDir, process.env.DEVHUB_BIN ?? '../bin/devhub');
export const port = process.env.DEVHUB_E2E_PORT;
export const host = '127.0.0.1';
export const baseURL = `http://${host}:${port}`;
/** The instance's data directory (devhub.db, devhub.sock); uploads live in <dataDir>/uploads. */
export const dataDir = process.env.DEVHUB_E2E_DATA_DIR;
export const uploadsDir = join(dataDir, 'uploads');
mkdirSync(uploadsDir, { recursive: true });
/**
 * The instance's content/: a copy of the repository's, made once, so the specs that edit the
 * portfolio from the site write there and never into the working tree.
 */
export const contentDir = join(dataDir, 'content');
if (!existsSync(contentDir)) cpSync(join(repoDir, 'content'), contentDir, { recursive: true });

/**
 * The DEVHUB_* environment of the instance, for the server and for CLI commands run against it.
 * Values already set in the environment win (CI or a developer may point elsewhere).
 */
export const devhubEnv: Record<string, string> = {
  DEVHUB_SERVER_ADDR: `${host}:${port}`,
  DEVHUB_STORAGE_DATA_DIR: dataDir,
  DEVHUB_STORAGE_UPLOADS_DIR: uploadsDir,
  DEVHUB_STORAGE_ROMS_DIR: join(repoDir, 'roms'),
  DEVHUB_STORAGE_CONTENT_DIR: contentDir,
  // many page loads come from one address in a test run: keep the per-IP limit out of the way
  DEVHUB_ACTIVITY_RATE_PER_MINUTE: '100000',
  DEVHUB_ACTIVITY_GLOBAL_RATE_PER_MINUTE: '100000',
};
for (const key of Object.keys(devhubEnv)) {
  const preset = process.env[key];
  if (preset) devhubEnv[key] = preset;
}
