// A devhub of a spec's own with mail on, and the tiny SMTP sink in the test process it sends to,
// for the specs that read its mails (reset, mailflows, newsletter).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect } from '@playwright/test';
import { devhubBin, devhubEnv } from './env';

export interface Mail {
  to: string[];
  data: string;
}

/** A minimal SMTP server that takes every message and keeps it. */
export function smtpSink(): Promise<{ server: Server; port: number; mails: Mail[] }> {
  const mails: Mail[] = [];
  const server = createServer((sock: Socket) => {
    let buf = '';
    let inData = false;
    let to: string[] = [];
    const reply = (line: string) => sock.write(`${line}\r\n`);
    reply('220 sink ESMTP');
    sock.on('data', (chunk) => {
      buf += chunk.toString('latin1');
      for (;;) {
        if (inData) {
          const end = buf.indexOf('\r\n.\r\n');
          if (end < 0) return;
          mails.push({ to, data: Buffer.from(buf.slice(0, end), 'latin1').toString('utf8') });
          buf = buf.slice(end + 5);
          inData = false;
          to = [];
          reply('250 queued');
          continue;
        }
        const nl = buf.indexOf('\r\n');
        if (nl < 0) return;
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 2);
        const cmd = line.slice(0, 4).toUpperCase();
        if (cmd === 'EHLO' || cmd === 'HELO') reply('250 sink');
        else if (cmd === 'RCPT') {
          to.push(line.replace(/^.*<(.*)>.*$/, '$1'));
          reply('250 ok');
        } else if (cmd === 'DATA') {
          inData = true;
          reply('354 go on');
        } else if (cmd === 'QUIT') {
          reply('221 bye');
          sock.end();
        } else reply('250 ok');
      }
    });
    sock.on('error', () => {});
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done({ server, port: (server.address() as { port: number }).port, mails })));
}

/** A free loopback port. */
export function freePort(): Promise<number> {
  return new Promise((done) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => done(port));
    });
  });
}

/** The text of a mail with quoted-printable undone. */
export function decoded(raw: string): string {
  return raw.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

/** A devhub of a spec's own with mail on, sending to an SMTP sink in the test process. */
export interface MailDevhub {
  sink: Awaited<ReturnType<typeof smtpSink>>;
  base: string;
  env: Record<string, string>;
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * Starts the binary under test on a free loopback port with a fresh data directory, its mail going
 * to a new sink, and the extra DEVHUB_* settings given; resolves when it answers /healthz.
 */
export async function startMailDevhub(name: string, extra: Record<string, string> = {}): Promise<MailDevhub> {
  const sink = await smtpSink();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), `devhub-e2e-${name}-`));
  const env = {
    ...(process.env as Record<string, string>),
    ...devhubEnv,
    DEVHUB_SERVER_ADDR: `127.0.0.1:${port}`,
    DEVHUB_SERVER_PUBLIC_URL: base,
    DEVHUB_STORAGE_DATA_DIR: dataDir,
    DEVHUB_STORAGE_UPLOADS_DIR: join(dataDir, 'uploads'),
    DEVHUB_MAIL_HOST: '127.0.0.1',
    DEVHUB_MAIL_PORT: String(sink.port),
    DEVHUB_MAIL_SECURITY: 'none',
    DEVHUB_MAIL_FROM: 'devhub <noreply@devhub.test>',
    ...extra,
  };
  const server = spawn(resolve(devhubBin), ['serve'], { env, stdio: 'ignore' });
  await expect
    .poll(async () => fetch(`${base}/healthz`).then((r) => r.status).catch(() => 0), { timeout: 30_000 })
    .toBe(200);
  const stop = async () => {
    server.kill('SIGTERM');
    await new Promise((done) => (server.exitCode !== null ? done(null) : server.once('exit', done)));
    sink.server.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { sink, base, env, dataDir, stop };
}
