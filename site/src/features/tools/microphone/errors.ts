// DOMException names from getUserMedia mapped to the spec's messages (§8). The values are
// i18n keys of the microphone namespace; the English bundle holds the spec's exact wording.

export type MicErrorKey =
  | 'errors.microphonesAccess'
  | 'errors.deviceAccess'
  | 'errors.recordingStart'
  | 'errors.exactlyOne'
  | 'errors.noDevices'
  | 'errors.insecure';

function errorName(err: unknown): string {
  if (err && typeof err === 'object' && 'name' in err && typeof (err as { name: unknown }).name === 'string') {
    return (err as { name: string }).name;
  }
  return '';
}

/**
 * The message for a failed request of the microphones. Refused permission (or an insecure
 * page) is "could not get access to microphones"; no device at all is "audio devices were not
 * found"; anything else (device busy, constraints unmet, aborted) is "could not get access to
 * the device".
 */
export function mediaErrorKey(err: unknown): MicErrorKey {
  switch (errorName(err)) {
    case 'NotAllowedError':
    case 'PermissionDeniedError':
    case 'SecurityError':
      return 'errors.microphonesAccess';
    case 'NotFoundError':
    case 'DevicesNotFoundError':
      return 'errors.noDevices';
    default:
      return 'errors.deviceAccess';
  }
}
