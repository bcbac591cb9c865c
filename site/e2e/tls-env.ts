// The https instance of the TLS browser test (playwright.https.config.ts): a certificate for
// devhub.test made with openssl, the free ports of its https and plain-HTTP listeners, and the
// SPKI hash Chromium trusts that certificate by. Computed once in Playwright's main process and
// handed to its workers through the environment (DEVHUB_TLS_E2E_*), as env.ts does.
import { execFileSync, execSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePortNow } from './ports';

process.env.DEVHUB_TLS_E2E_DIR ||= mkdtempSync(join(tmpdir(), 'devhub-tls-e2e-'));
process.env.DEVHUB_TLS_E2E_HTTPS_PORT ||= freePortNow();
process.env.DEVHUB_TLS_E2E_HTTP_PORT ||= freePortNow();

/** A name that is not localhost, so only https makes the page a secure context. */
export const domain = 'devhub.test';
export const dir = process.env.DEVHUB_TLS_E2E_DIR;
export const httpsPort = process.env.DEVHUB_TLS_E2E_HTTPS_PORT;
export const httpPort = process.env.DEVHUB_TLS_E2E_HTTP_PORT;
export const certFile = join(dir, 'cert.pem');
export const keyFile = join(dir, 'key.pem');
export const dataDir = join(dir, 'data');
mkdirSync(join(dataDir, 'uploads'), { recursive: true });

if (!existsSync(certFile)) {
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '30',
    '-subj', `/CN=${domain}`, '-addext', `subjectAltName=DNS:${domain}`,
    '-keyout', keyFile, '-out', certFile,
  ], { stdio: 'ignore' });
}

/** base64(SHA-256(SubjectPublicKeyInfo)) of the certificate: what Chromium is told to trust. */
export const spki = execSync(
  `openssl x509 -in "${certFile}" -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64`,
  { encoding: 'utf8' },
).trim();

export const httpsURL = `https://${domain}:${httpsPort}`;
export const httpURL = `http://${domain}:${httpPort}`;
