// Save-slot thumbnails: the core's full-size PNG of the frame scaled down in the player frame, so
// a slot's picture is a few KiB (the server keeps at most gamestates.MaxScreenshotBytes, 1 MiB,
// and a small one still fits the keep-alive request that carries it when the page is closed).

/** A thumbnail's width in CSS pixels; its height keeps the frame's aspect. */
export const THUMB_WIDTH = 160;
/** The server's limit of a slot screenshot (gamestates.MaxScreenshotBytes). */
export const MAX_THUMB_BYTES = 1 << 20;

/** The thumbnail size of a w×h frame: maxWidth wide at most, never upscaled, at least 1×1. */
export function thumbSize(w: number, h: number, maxWidth: number): { width: number; height: number } {
  if (w <= 0 || h <= 0) return { width: 1, height: 1 };
  const scale = Math.min(1, maxWidth / w);
  return { width: Math.max(1, Math.round(w * scale)), height: Math.max(1, Math.round(h * scale)) };
}

/** png scaled down to maxWidth (a PNG again); the browser decodes and encodes it. */
export async function downscalePng(png: Uint8Array, maxWidth: number): Promise<Uint8Array> {
  const bitmap = await createImageBitmap(new Blob([png as BlobPart], { type: 'image/png' }));
  try {
    const { width, height } = thumbSize(bitmap.width, bitmap.height, maxWidth);
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no 2d context');
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(bitmap, 0, 0, width, height);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
    if (!blob) throw new Error('the thumbnail was not encoded');
    return new Uint8Array(await blob.arrayBuffer());
  } finally {
    bitmap.close();
  }
}
