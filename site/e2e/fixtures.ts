// Helpers for every end-to-end spec: the instance's address and data, the devhub CLI against
// the same running server (it reaches it through the owner socket), and a console-error catcher.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test as base, expect, type Page, type Request } from '@playwright/test';
import { baseURL, dataDir, devhubBin, devhubEnv, uploadsDir } from './env';

export { baseURL, dataDir, devhubBin, devhubEnv, uploadsDir, expect };

export interface CliOptions {
  /** Text written to the command's standard input (e.g. for --password-stdin). */
  input?: string;
  /** Extra environment for this one command. */
  env?: Record<string, string>;
  timeoutMs?: number;
}

/** Runs `devhub <args>` against the running instance and returns its stdout (throws on exit ≠ 0). */
export function cli(args: string[], opts: CliOptions = {}): string {
  return execFileSync(devhubBin, args, {
    env: { ...process.env, ...devhubEnv, ...opts.env },
    input: opts.input ?? '',
    encoding: 'utf8',
    timeout: opts.timeoutMs ?? 30_000,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/** Runs a `--json` command and parses its output. */
export function cliJson<T = unknown>(args: string[], opts?: CliOptions): T {
  const out = cli(args.includes('--json') ? args : [...args, '--json'], opts);
  return JSON.parse(out) as T;
}

/** A short unique suffix for names, e-mails and files, so specs never collide in one instance. */
export const uid = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

export interface Account {
  email: string;
  password: string;
}

/** Creates an account with the CLI (`user create`, an admin with admin: true). */
export function createAccount(opts: { prefix: string; name: string; admin?: boolean }): Account {
  const email = `${opts.prefix}-${uid()}@example.com`;
  const password = `pw-${uid()}-long-enough`;
  const args = ['user', 'create', '--email', email, '--name', opts.name, '--password-stdin'];
  if (opts.admin) args.push('--admin');
  cli(args, { input: `${password}\n` });
  return { email, password };
}

/**
 * Creates an account with the CLI and signs the page in as it through the API: the access
 * token lands in localStorage, as after the sign-in form. Returns the account and its token.
 */
export async function signInNewAccount(
  page: Page,
  opts: { prefix: string; name: string; admin?: boolean },
): Promise<Account & { token: string }> {
  const account = createAccount(opts);
  await page.goto('/');
  const token = await page.evaluate(
    async ([e, p]) => {
      const res = await fetch('/api/auth/login', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: e, password: p }),
      });
      if (!res.ok) throw new Error(`login: ${res.status}`);
      return ((await res.json()) as { tokens: { accessToken: string } }).tokens.accessToken;
    },
    [account.email, account.password],
  );
  await page.evaluate((t) => localStorage.setItem('token', t), token);
  return { ...account, token };
}

/** A path inside the instance's data directory. */
export function dataPath(...parts: string[]): string {
  return join(dataDir, ...parts);
}

/** Reads a file from the instance's data directory. */
export function readDataFile(rel: string): Buffer {
  return readFileSync(dataPath(rel));
}

export interface ActivityEvent {
  id: number;
  action: string;
  details: Record<string, unknown> | null;
  clientInfo: Record<string, unknown>;
  at: string;
  ip: string;
  userId: number;
}

/** Stored activity events, newest first (`devhub activity list --json`). */
export function activityEvents(action?: string): ActivityEvent[] {
  const args = ['activity', 'list', '--json', '--limit', '0'];
  if (action) args.push('--action', action);
  return cliJson<ActivityEvent[]>(args);
}

/**
 * Waits until no request of the page has been in flight for `quietMs`, the live event stream
 * (GET /api/events) aside: a signed-in page holds that stream open for good, so Playwright's
 * 'networkidle' never comes for it. Requests the page started before the call are not seen.
 */
export async function networkQuiet(page: Page, quietMs = 500): Promise<void> {
  const pending = new Set<Request>();
  const start = (r: Request) => {
    if (!new URL(r.url()).pathname.startsWith('/api/events')) pending.add(r);
  };
  const end = (r: Request) => pending.delete(r);
  page.on('request', start);
  page.on('requestfinished', end);
  page.on('requestfailed', end);
  try {
    let quietSince = Date.now();
    await expect
      .poll(
        () => {
          if (pending.size > 0) quietSince = Date.now();
          return Date.now() - quietSince >= quietMs;
        },
        { timeout: 20_000, intervals: [100] },
      )
      .toBe(true);
  } finally {
    page.off('request', start);
    page.off('requestfinished', end);
    page.off('requestfailed', end);
  }
}

/** Collects console errors and uncaught page errors of a page. */
export function trackConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console.error: ${msg.text()} (${msg.location().url})`);
  });
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  return errors;
}

/** `test` with a `consoleErrors` fixture: the errors the page logged during the test. */
export const test = base.extend<{ consoleErrors: string[] }>({
  consoleErrors: async ({ page }, use) => {
    await use(trackConsoleErrors(page));
  },
});
