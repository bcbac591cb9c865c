// The contact form's proof of work: ALTCHA's open scheme, solved with its own library's solver
// (SubtleCrypto SHA-256 over salt + number until the hash is the challenge).
import { solveChallenge } from 'altcha-lib/v1';
import type { ContactChallenge } from './api';

/**
 * Finds the challenge's number and returns what the server verifies: base64 of
 * {algorithm, challenge, number, salt, signature}. Rejects when no number up to maxnumber fits
 * (a challenge this server did not make) or when signal aborts.
 */
export async function solvePow(c: ContactChallenge, signal?: AbortSignal): Promise<string> {
  const { promise, controller } = solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber);
  const abort = () => controller.abort();
  signal?.addEventListener('abort', abort);
  try {
    const solution = await promise;
    if (!solution) throw new Error('no solution');
    const payload = { algorithm: c.algorithm, challenge: c.challenge, number: solution.number, salt: c.salt, signature: c.signature };
    return btoa(JSON.stringify(payload));
  } finally {
    signal?.removeEventListener('abort', abort);
  }
}
