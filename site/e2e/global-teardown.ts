import { rmSync } from 'node:fs';

// Removes the temporary data directory unless DEVHUB_E2E_KEEP is set (to inspect a failed run).
export default function globalTeardown() {
  const dir = process.env.DEVHUB_E2E_DATA_DIR;
  if (!dir || process.env.DEVHUB_E2E_KEEP) return;
  if (!/devhub-e2e-/.test(dir)) return; // only ever remove what env.ts created
  rmSync(dir, { recursive: true, force: true });
}
