// How the live picture is shown (not what is captured): mirroring and the scale that keeps a
// sideways picture inside its frame.
import type { Rotation } from './photo';
import type { Facing } from './useCamera';

/**
 * Mirrored by default when the camera faces the visitor, like a mirror. The track's reported
 * facing mode wins; without one the requested facing counts (no explicit device chosen), and a
 * chosen device that reports nothing is taken as a desk webcam, which faces the visitor.
 */
export function defaultMirrored(reported: string | undefined, requested: Facing | null): boolean {
  if (reported === 'environment') return false;
  if (reported === 'user') return true;
  return requested !== 'environment';
}

/** Scale for a picture of aspect w/h turned by the rotation inside a frame of the same aspect. */
export function previewScale(aspect: number, rotation: Rotation): number {
  if (!(aspect > 0) || (rotation !== 90 && rotation !== 270)) return 1;
  return Math.min(aspect, 1 / aspect);
}
