import { execFileSync } from 'node:child_process';

/**
 * A free loopback port, found at once: the instances' environment is computed while Playwright
 * loads its config, before anything asynchronous can run, so a child node process asks the kernel.
 */
export function freePortNow(): string {
  return execFileSync(
    process.execPath,
    [
      '-e',
      "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})",
    ],
    { encoding: 'utf8' },
  ).trim();
}
