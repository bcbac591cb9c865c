import { describe, expect, it } from 'vitest';
import { cameraErrorKey } from './errors';

describe('cameraErrorKey', () => {
  it.each([
    ['NotAllowedError', 'denied'],
    ['PermissionDeniedError', 'denied'],
    ['SecurityError', 'denied'],
    ['NotFoundError', 'notFound'],
    ['DevicesNotFoundError', 'notFound'],
    ['NotReadableError', 'inUse'],
    ['TrackStartError', 'inUse'],
    ['OverconstrainedError', 'overconstrained'],
    ['ConstraintNotSatisfiedError', 'overconstrained'],
    ['NotSupportedError', 'unsupportedType'],
    ['AbortError', 'generic'],
    ['SomethingElse', 'generic'],
  ])('%s → %s', (name, key) => {
    expect(cameraErrorKey(new DOMException('x', name))).toBe(key);
  });

  it('maps a TypeError (bad constraints) to the unsupported-type message', () => {
    expect(cameraErrorKey(new TypeError('no constraints'))).toBe('unsupportedType');
  });

  it('maps non-errors to the generic message', () => {
    expect(cameraErrorKey(undefined)).toBe('generic');
    expect(cameraErrorKey('boom')).toBe('generic');
    expect(cameraErrorKey({ name: 42 })).toBe('generic');
  });
});
