import type { FileGroups } from './api';

/** The image types the server makes thumbnails of (pkg/thumbs). */
const THUMBNAILED = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** How long after an upload the list waits for a thumbnail that is being made. */
export const THUMB_WAIT_MS = 60_000;

/** How often the list is asked again meanwhile. */
export const THUMB_POLL_MS = 2_000;

/**
 * Whether an image uploaded in the last minute still has no thumbnail: the server makes them in
 * the background after the upload answers, so the list asks again until it has one (or the minute
 * is over — an image refused as too large never gets one).
 */
export function awaitingThumbnail(groups: FileGroups, now = Date.now()): boolean {
  return groups.images.some((f) => {
    // A private file never gets a thumbnail URL (an <img> cannot send the token).
    if (f.thumbnailUrl || !THUMBNAILED.has(f.mimetype) || f.visibility === 'private') return false;
    const age = now - Date.parse(f.uploadedAt);
    return age >= -THUMB_WAIT_MS && age < THUMB_WAIT_MS;
  });
}
