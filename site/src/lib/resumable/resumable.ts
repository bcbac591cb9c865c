// Which files take the resumable (tus) upload. Kept apart from tus.ts so the file cloud page can
// decide without loading tus-js-client: that library arrives only when a large file is picked.

const MiB = 1024 * 1024;

/** Files larger than this go through tus; smaller ones through the multipart upload. */
export const TUS_THRESHOLD = 8 * MiB;

/** Whether a file goes through the resumable upload. */
export function isResumable(file: File): boolean {
  return file.size > TUS_THRESHOLD;
}

/** The resumable upload (tus.ts with tus-js-client), loaded when a large file needs it. */
export const loadTus = () => import('./tus');
