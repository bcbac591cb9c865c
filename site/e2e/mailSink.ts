// A tiny SMTP sink in the test process, for specs that run a devhub of their own with mail on and
// read what it sends (reset.spec.ts, mailflows.spec.ts).
import { createServer, type Server, type Socket } from 'node:net';

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
