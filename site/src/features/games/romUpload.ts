// The owner's uploads from the games page: each ROM is the raw body of POST /api/games/roms (the
// server streams it to disk), its cover the body of PUT /api/games/:id/cover; removal is
// DELETE /api/games/:id. Admins only; the server checks names, extensions and sizes.
import { request } from '../../lib/api';
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

export function uploadRom(file: File, consoleId: string): Promise<Game> {
  return request<Game>('/api/games/roms', {
    method: 'POST',
    query: { file: file.name, console: consoleId || undefined },
    body: file,
    headers: { 'Content-Type': 'application/octet-stream' },
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
