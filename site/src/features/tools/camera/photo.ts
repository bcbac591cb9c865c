// Photos: the current frame, rotated and with the image settings applied, as a
// JPEG at quality 0.8 named photo_<timestamp>.jpg. Nothing is uploaded: the blob stays in the
// page and is offered through an object URL.
import { applyFilters, isDefaultFilters, type Filters } from './filters';

export const PHOTO_TYPE = 'image/jpeg';
export const PHOTO_QUALITY = 0.8;
export const ROTATION_STEP = 90;

export type Rotation = 0 | 90 | 180 | 270;

/** photo_<timestamp>.jpg, the timestamp in milliseconds since the epoch. */
export function photoFileName(timestamp: number): string {
  return `photo_${Math.trunc(timestamp)}.jpg`;
}

/** The next rotation: 0 → 90 → 180 → 270 → 0. */
export function nextRotation(r: Rotation): Rotation {
  return ((r + ROTATION_STEP) % 360) as Rotation;
}

/** The size of a width×height frame turned by the rotation (sides swap at 90 and 270). */
export function rotatedSize(width: number, height: number, r: Rotation): { width: number; height: number } {
  return r === 90 || r === 270 ? { width: height, height: width } : { width, height };
}

/**
 * Draws the video's current frame turned by the rotation, applies the settings to its pixels and
 * encodes it as JPEG 0.8.
 */
export async function capturePhoto(video: HTMLVideoElement, rotation: Rotation, filters: Filters): Promise<Blob> {
  const w = video.videoWidth;
  const h = video.videoHeight;
  if (!w || !h) throw new Error('the video has no frame yet');
  const size = rotatedSize(w, h, rotation);
  const canvas = document.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  if (!ctx) throw new Error('2D canvas is not available');
  ctx.translate(size.width / 2, size.height / 2);
  ctx.rotate((rotation * Math.PI) / 180);
  ctx.drawImage(video, -w / 2, -h / 2, w, h);
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  if (!isDefaultFilters(filters)) {
    const image = ctx.getImageData(0, 0, size.width, size.height);
    image.data.set(applyFilters(image.data, size.width, size.height, filters));
    ctx.putImageData(image, 0, 0);
  }
  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('JPEG encoding failed'))), PHOTO_TYPE, PHOTO_QUALITY);
  });
}
