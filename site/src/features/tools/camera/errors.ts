// Camera errors: the DOMException name a failed getUserMedia carries decides the
// message. Only the key is computed here; the words live in the locale files (the Russian ones
// are the spec's wording).

export type CameraErrorKey =
  | 'denied'
  | 'notFound'
  | 'inUse'
  | 'overconstrained'
  | 'unsupportedType'
  | 'insecure'
  | 'generic'
  | 'fullscreen'
  | 'photo';

// Old Chrome and Firefox builds used their own names for the same situations; they are kept so a
// visitor on such a browser still reads the right advice.
const BY_NAME: Record<string, CameraErrorKey> = {
  NotAllowedError: 'denied',
  PermissionDeniedError: 'denied',
  SecurityError: 'denied',
  NotFoundError: 'notFound',
  DevicesNotFoundError: 'notFound',
  NotReadableError: 'inUse',
  TrackStartError: 'inUse',
  OverconstrainedError: 'overconstrained',
  ConstraintNotSatisfiedError: 'overconstrained',
  NotSupportedError: 'unsupportedType',
  TypeError: 'unsupportedType',
};

/**
 * Why the page has no getUserMedia at all: browsers leave navigator.mediaDevices out of a page
 * that is not a secure context (served over plain http from anything but localhost), which a
 * self-hosted site reached by its address often is; otherwise the browser lacks the API.
 */
export function unavailableKey(): CameraErrorKey {
  return globalThis.isSecureContext === false ? 'insecure' : 'unsupportedType';
}

/** The message key for an error thrown by getUserMedia (anything else → 'generic'). */
export function cameraErrorKey(err: unknown): CameraErrorKey {
  const name = err && typeof err === 'object' && 'name' in err ? String((err as { name: unknown }).name) : '';
  return BY_NAME[name] ?? 'generic';
}

/** How long an error stays on screen before it clears itself. */
export const ERROR_CLEAR_MS = 5000;
