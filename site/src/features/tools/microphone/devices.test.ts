import { describe, expect, it } from 'vitest';
import { audioInputs } from './useMicrophones';
import { recorderMimeType } from './useRecorder';

const dev = (kind: string, deviceId: string, label = '') => ({ kind, deviceId, label, groupId: '', toJSON: () => ({}) }) as MediaDeviceInfo;

describe('audioInputs', () => {
  it('keeps microphones only and drops Chrome’s default/communications aliases', () => {
    expect(
      audioInputs([dev('audioinput', 'default', 'Default - Mic'), dev('audioinput', 'communications'), dev('audioinput', 'a', 'Mic'), dev('audiooutput', 'o'), dev('videoinput', 'v')]),
    ).toEqual([{ deviceId: 'a', label: 'Mic' }]);
  });
  it('keeps the alias when it is the only entry', () => {
    expect(audioInputs([dev('audioinput', 'default')])).toEqual([{ deviceId: 'default', label: '' }]);
  });
  it('is empty without microphones', () => {
    expect(audioInputs([dev('videoinput', 'v')])).toEqual([]);
  });
});

describe('recorderMimeType', () => {
  it('prefers webm with Opus, then plain webm, else the browser default', () => {
    expect(recorderMimeType(() => true)).toBe('audio/webm;codecs=opus');
    expect(recorderMimeType((t) => t === 'audio/webm')).toBe('audio/webm');
    expect(recorderMimeType(() => false)).toBeUndefined();
  });
});
