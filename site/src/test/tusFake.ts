// tus-js-client replaced at its module boundary, for the tests of the code that drives it (the
// file cloud's tus helper and Uploader, the games' ROM uploader):
//
//   vi.mock('tus-js-client', () => import('<…>/test/tusFake'));
//
// Every Upload made is kept in tusFake.uploads with the options it was given, so a test calls the
// callbacks (onProgress, onSuccess, onError, onAfterResponse…) the way the library would;
// findPreviousUploads answers tusFake.previous. tusFake.reset() between tests.
import { vi } from 'vitest';

/** What findPreviousUploads answers: uploads this browser remembers. */
export interface PreviousUpload {
  uploadUrl: string;
  creationTime: string;
  size: number;
  metadata: Record<string, string>;
  urlStorageKey: string;
}

export const tusFake = {
  uploads: [] as Upload[],
  previous: [] as PreviousUpload[],
  reset(): void {
    tusFake.uploads.length = 0;
    tusFake.previous = [];
  },
};

export class DetailedError extends Error {
  constructor(
    message: string,
    readonly causingError: Error | null,
    readonly originalRequest: unknown,
    readonly originalResponse: unknown,
  ) {
    super(message);
  }
}

export class Upload {
  url: string | null = null;
  start = vi.fn();
  abort = vi.fn(() => Promise.resolve());
  resumeFromPreviousUpload = vi.fn((p: { uploadUrl: string }) => {
    this.url = p.uploadUrl;
  });
  constructor(
    readonly file: File,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests call whichever callback they test
    readonly options: Record<string, any>,
  ) {
    tusFake.uploads.push(this);
  }
  findPreviousUploads(): Promise<PreviousUpload[]> {
    return Promise.resolve(tusFake.previous);
  }
}

/** The library's fingerprint, made recognisable: "tus-br-<name>-<size>". */
export const defaultOptions = { fingerprint: (f: File) => Promise.resolve(`tus-br-${f.name}-${f.size}`) };

/**
 * tus-js-client's error as the library builds it, typed for tests (the library's typings declare
 * no constructor).
 */
export const TusError = DetailedError as unknown as new (message: string, causing: Error | null, req: unknown, res: unknown) => Error;
