// The owner's uploads from the games page. Each ROM is a resumable upload through the file
// cloud's tus endpoint (features/files/tus.ts) with metadata target=rom: progress, retries after
// a dropped connection, and dropping the same file again continues it from the server's offset.
// The server checks it at creation as POST /api/games/roms does (that route stays for scripts)
// and names the new game in Devhub-Game-Id. Its cover is then the body of
// PUT /api/games/:id/cover; removal is DELETE /api/games/:id. Admins only.
import { ApiError, request } from '../../lib/api';
import { loadTus } from '../../lib/resumable/resumable';
import type { Game } from './api';

export const COVER_EXTENSIONS = ['.png', '.jpg', '.jpeg', '.webp'];

export function extOf(name: string): string {
  const i = name.lastIndexOf('.');
  return i > 0 ? name.slice(i).toLowerCase() : '';
}

export const baseOf = (name: string) => name.slice(0, name.length - extOf(name).length);

/** Splits dropped files into ROMs and covers; a cover goes with the ROM of the same base name. */
export function pairUploads(files: File[]): Array<{ rom: File; cover?: File }> {
  const covers = new Map<string, File>();
  const roms: File[] = [];
  for (const f of files) {
    if (COVER_EXTENSIONS.includes(extOf(f.name))) covers.set(baseOf(f.name).toLowerCase(), f);
    else roms.push(f);
  }
  return roms.map((rom) => ({ rom, cover: covers.get(baseOf(rom.name).toLowerCase()) }));
}

/** How a ROM upload is sent, reports and is stopped. */
export interface RomUploadControl {
  onProgress?: (sent: number, total: number) => void;
  /** Aborting it cancels the upload; the server deletes what it had. */
  signal?: AbortSignal;
  /** The file name it is stored under (after a name clash, the admin's new one); else the file's. */
  fileName?: string;
  /** Put it in place of the ROM of the same file name: the same game, with its id and name. */
  replace?: boolean;
}

/**
 * The server refused the ROM because the console's folder already holds one of that file name
 * (409, data.file.code "exists"): it may be sent again under another name, or to replace it.
 */
export function isNameClash(err: unknown): boolean {
  if (!(err instanceof ApiError) || err.status !== 409) return false;
  const file = err.data?.file as { code?: unknown } | null | undefined;
  return file?.code === 'exists';
}

/** A name for a ROM that clashed: "Game.nes" → "Game (2).nes", "Game (2).nes" → "Game (3).nes". */
export function nextFreeName(name: string): string {
  const ext = extOf(name);
  const base = name.slice(0, name.length - ext.length);
  const m = /^(.*) \((\d+)\)$/.exec(base);
  return m ? `${m[1]} (${Number(m[2]) + 1})${ext}` : `${base} (2)${ext}`;
}

/** The user cancelled the upload. */
export class UploadCancelled extends Error {
  constructor() {
    super('upload cancelled');
    this.name = 'UploadCancelled';
  }
}

/** The connection stayed down through the retries; dropping the file again continues it. */
export class UploadInterrupted extends Error {
  constructor() {
    super('upload interrupted');
    this.name = 'UploadInterrupted';
  }
}

/**
 * Sends a ROM through the tus endpoint (console '' lets the server choose by the extension) and
 * resolves with the new game's id. A refusal rejects with the server's ApiError (a name clash:
 * isNameClash).
 */
export async function uploadRom(file: File, consoleId: string, userId: number, ctl: RomUploadControl = {}): Promise<number> {
  const tus = await loadTus();
  if (ctl.signal?.aborted) throw new UploadCancelled();
  return new Promise<number>((resolve, reject) => {
    const metadata: Record<string, string> = { target: 'rom' };
    if (consoleId) metadata.console = consoleId;
    if (ctl.fileName) metadata.filename = ctl.fileName;
    if (ctl.replace) metadata.replace = 'true';
    const done = () => ctl.signal?.removeEventListener('abort', onAbort);
    const up = new tus.ResumableUpload(
      file,
      userId,
      {
        onProgress: (sent, total) => ctl.onProgress?.(sent, total),
        onSuccess: (gameId) => {
          done();
          if (gameId) resolve(gameId);
          else reject(new Error('the server did not name the new game'));
        },
        onError: (failure) => {
          done();
          if (failure.kind === 'network') {
            // Stop waiting for the network here: the row says to drop the file again.
            up.pause();
            reject(new UploadInterrupted());
            return;
          }
          reject(new ApiError(failure.status, failure.message, failure.data ?? null));
        },
      },
      { metadata, answerHeader: 'Devhub-Game-Id' },
    );
    const onAbort = () => {
      done();
      void up.cancel();
      reject(new UploadCancelled());
    };
    ctl.signal?.addEventListener('abort', onAbort, { once: true });
    void up.start();
  });
}

export function uploadCover(gameId: number, file: File): Promise<Game> {
  return request<Game>(`/api/games/${gameId}/cover`, {
    method: 'PUT',
    query: { file: file.name },
    body: file,
    headers: { 'Content-Type': file.type || 'application/octet-stream' },
  });
}

export function removeRom(gameId: number): Promise<unknown> {
  return request(`/api/games/${gameId}`, { method: 'DELETE' });
}
