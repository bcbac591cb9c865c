import { describe, expect, it } from 'vitest';
import { mediaErrorKey } from './errors';
import en from './locales/en.json';

describe('mediaErrorKey', () => {
  it.each([
    ['NotAllowedError', 'errors.microphonesAccess'],
    ['PermissionDeniedError', 'errors.microphonesAccess'],
    ['SecurityError', 'errors.microphonesAccess'],
    ['NotFoundError', 'errors.noDevices'],
    ['DevicesNotFoundError', 'errors.noDevices'],
    ['NotReadableError', 'errors.deviceAccess'],
    ['OverconstrainedError', 'errors.deviceAccess'],
    ['AbortError', 'errors.deviceAccess'],
    ['TypeError', 'errors.deviceAccess'],
  ])('%s → %s', (name, key) => expect(mediaErrorKey(new DOMException('x', name))).toBe(key));
  it('handles values that are not errors', () => {
    expect(mediaErrorKey(undefined)).toBe('errors.deviceAccess');
    expect(mediaErrorKey('boom')).toBe('errors.deviceAccess');
  });
  it('keeps the spec wording in English (§5, §8)', () => {
    expect(en.errors).toEqual({
      microphonesAccess: 'Could not get access to microphones (check browser permissions)',
      deviceAccess: 'Could not get access to the device',
      recordingStart: 'Could not start recording',
      exactlyOne: 'Recording needs exactly one microphone to be chosen',
      noDevices: 'Audio devices were not found',
      // beyond the spec's catalogue: why a page over plain http has no microphone at all
      insecure: 'The microphone needs a secure connection: open this site over HTTPS (or on localhost).',
    });
    expect(en.delay.hint).toBe('Available only when one microphone is chosen');
  });
});
