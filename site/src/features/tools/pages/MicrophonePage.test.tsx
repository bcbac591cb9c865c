import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { initTestI18n, renderWithShell } from '../../../test/utils';
import MicrophonePage from './MicrophonePage';

// The page's states with fake Web Audio / media objects: what it shows for no devices and a
// refused permission, the exactly-one-microphone rules, recording, noise measurement and the
// release of every track and context on unmount.

class FakeTrack {
  readyState: 'live' | 'ended' = 'live';
  stop = vi.fn(() => {
    this.readyState = 'ended';
  });
  getSettings = () => ({ sampleRate: 48000, channelCount: 1, latency: 0.01, echoCancellation: true, noiseSuppression: false, autoGainControl: true });
}
class FakeStream {
  tracks = [new FakeTrack()];
  getTracks = () => this.tracks;
  getAudioTracks = () => this.tracks;
}
class FakeNode {
  connect = vi.fn();
  disconnect = vi.fn();
}
/** Level of the fake signal: every time-domain sample equals it. */
let signal = 0.1;
class FakeAnalyser extends FakeNode {
  fftSize = 2048;
  frequencyBinCount = 1024;
  context = { sampleRate: 48000 };
  getFloatTimeDomainData = (buf: Float32Array) => buf.fill(signal);
  getByteFrequencyData = (buf: Uint8Array) => buf.fill(0);
}
const contexts: FakeAudioContext[] = [];
class FakeAudioContext {
  state: AudioContextState = 'running';
  destination = new FakeNode();
  sampleRate = 48000;
  constructor() {
    contexts.push(this);
  }
  resume = vi.fn(async () => undefined);
  close = vi.fn(async () => {
    this.state = 'closed';
  });
  createMediaStreamSource = vi.fn(() => new FakeNode());
  createAnalyser = vi.fn(() => new FakeAnalyser());
  createDelay = vi.fn((max: number) => Object.assign(new FakeNode(), { max, delayTime: { value: 0 } }));
}
class FakeRecorder {
  static isTypeSupported = () => true;
  state: RecordingState = 'inactive';
  ondataavailable: ((e: { data: Blob }) => void) | null = null;
  onstop: (() => void) | null = null;
  constructor(public stream: FakeStream) {}
  start() {
    this.state = 'recording';
  }
  stop() {
    this.state = 'inactive';
    this.ondataavailable?.({ data: new Blob(['webm'], { type: 'audio/webm' }) });
    this.onstop?.();
  }
}

const streams: FakeStream[] = [];
let devices: Array<{ kind: string; deviceId: string; label: string }>;
let gumError: DOMException | null;

function installMedia() {
  streams.length = 0;
  contexts.length = 0;
  gumError = null;
  signal = 0.1;
  devices = [
    { kind: 'audioinput', deviceId: 'default', label: 'Default' },
    { kind: 'audioinput', deviceId: 'mic-a', label: 'Desk mic' },
    { kind: 'audioinput', deviceId: 'mic-b', label: '' },
    { kind: 'videoinput', deviceId: 'cam', label: 'Camera' },
  ];
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: {
      getUserMedia: vi.fn(async () => {
        if (gumError) throw gumError;
        const s = new FakeStream();
        streams.push(s);
        return s;
      }),
      enumerateDevices: vi.fn(async () => devices),
      addEventListener: vi.fn(),
      removeEventListener: vi.fn(),
    },
  });
  // jsdom draws nothing: the visualizers skip drawing without a 2D context
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
  vi.stubGlobal('AudioContext', FakeAudioContext);
  vi.stubGlobal('MediaRecorder', FakeRecorder);
  URL.createObjectURL = vi.fn(() => `blob:rec-${Math.random()}`);
  URL.revokeObjectURL = vi.fn();
}

beforeAll(() => initTestI18n('en'));
beforeEach(installMedia);
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const micBox = (name: string) => screen.getByRole('checkbox', { name });

/** Clicks Record once the button is enabled and waits until the recording has started. */
async function startRecording() {
  await waitFor(() => expect((screen.getByRole('button', { name: 'Record' }) as HTMLButtonElement).disabled).toBe(false));
  fireEvent.click(screen.getByRole('button', { name: 'Record' }));
  await screen.findByRole('button', { name: 'Stop recording' });
}

describe('MicrophonePage', () => {
  it('lists the microphones (without Chrome’s default alias) with checkboxes and a fallback label', async () => {
    renderWithShell(<MicrophonePage />);
    expect(((await screen.findByRole('checkbox', { name: 'Desk mic' })) as HTMLInputElement).checked).toBe(false);
    expect(micBox('Microphone 2')).toBeTruthy();
    expect(screen.queryByRole('checkbox', { name: 'Default' })).toBeNull();
    expect(screen.queryByRole('checkbox', { name: 'Camera' })).toBeNull();
    // the permission probe was released at once
    expect(streams[0].tracks[0].stop).toHaveBeenCalled();
  });

  it('says audio devices were not found when there are none', async () => {
    devices = [{ kind: 'videoinput', deviceId: 'cam', label: 'Camera' }];
    gumError = new DOMException('none', 'NotFoundError');
    renderWithShell(<MicrophonePage />);
    expect(await screen.findByText('Audio devices were not found')).toBeTruthy();
  });

  it.each([
    [false, 'The microphone needs a secure connection: open this site over HTTPS (or on localhost).'],
    [true, 'Could not get access to the device'],
  ])('without mediaDevices (secure context: %s) says why', async (secure, text) => {
    // What a browser does on a page served over plain http from anything but localhost.
    Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: undefined });
    vi.stubGlobal('isSecureContext', secure);
    renderWithShell(<MicrophonePage />);
    expect(await screen.findByText(text)).toBeTruthy();
  });

  it('shows the spec message when the permission is refused', async () => {
    gumError = new DOMException('denied', 'NotAllowedError');
    renderWithShell(<MicrophonePage />);
    expect((await screen.findByRole('alert')).textContent).toContain('Could not get access to microphones (check browser permissions)');
  });

  it('ticking the unnamed microphone listed before permission asks again and says it is refused', async () => {
    // Before permission the browser lists one microphone with an empty id and label.
    devices = [{ kind: 'audioinput', deviceId: '', label: '' }];
    gumError = new DOMException('denied', 'NotAllowedError');
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderWithShell(<MicrophonePage />);
    const gum = vi.mocked(navigator.mediaDevices.getUserMedia);
    expect((await screen.findByRole('alert')).textContent).toContain('Could not get access to microphones');
    await act(() => vi.advanceTimersByTimeAsync(5_100));
    expect(screen.queryByRole('alert')).toBeNull();
    const asked = gum.mock.calls.length;
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Microphone 1' }));
    await waitFor(() => expect(gum.mock.calls.length).toBe(asked + 1));
    expect(gum).toHaveBeenLastCalledWith({ audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true } });
    expect((await screen.findByRole('alert')).textContent).toContain('Could not get access to microphones (check browser permissions)');
  });

  it('needs exactly one microphone for recording and delayed playback', async () => {
    renderWithShell(<MicrophonePage />);
    await screen.findByRole('checkbox', { name: 'Desk mic' });
    const delaySwitch = screen.getByRole('switch', { name: 'Delayed playback' });
    expect((delaySwitch as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('Available only when one microphone is chosen')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Measure noise level' }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Record' }));
    expect(screen.getByRole('alert').textContent).toContain('Recording needs exactly one microphone to be chosen');

    fireEvent.click(micBox('Desk mic'));
    expect(await screen.findByRole('heading', { level: 3, name: 'Desk mic' })).toBeTruthy();
    expect((delaySwitch as HTMLButtonElement).disabled).toBe(false);
    expect(screen.queryByText('Available only when one microphone is chosen')).toBeNull();

    fireEvent.click(micBox('Microphone 2'));
    await vi.waitFor(() => expect(screen.getAllByRole('heading', { level: 3 })).toHaveLength(2));
    expect((delaySwitch as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Record' }));
    expect(screen.getByRole('alert').textContent).toContain('Recording needs exactly one microphone to be chosen');
  });

  it('shows the track settings and re-acquires the stream when a processing option changes', async () => {
    renderWithShell(<MicrophonePage />);
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Desk mic' }));
    const monitor = await screen.findByRole('article', { name: 'Microphone Desk mic' });
    expect(within(monitor).getByText('48000 Hz')).toBeTruthy();
    expect(within(monitor).getByText('10.0 ms')).toBeTruthy();
    const gum = vi.mocked(navigator.mediaDevices.getUserMedia);
    expect(gum).toHaveBeenLastCalledWith({
      audio: { deviceId: { exact: 'mic-a' }, echoCancellation: true, noiseSuppression: true, autoGainControl: true },
    });
    const first = streams.at(-1)!;
    fireEvent.click(screen.getByRole('checkbox', { name: 'Noise suppression' }));
    await vi.waitFor(() =>
      expect(gum).toHaveBeenLastCalledWith({
        audio: { deviceId: { exact: 'mic-a' }, echoCancellation: true, noiseSuppression: false, autoGainControl: true },
      }),
    );
    expect(first.tracks[0].readyState).toBe('ended');
  });

  it('records webm, lists recordings newest first and deletes them', async () => {
    const now = vi.spyOn(Date, 'now');
    renderWithShell(<MicrophonePage />);
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Desk mic' }));
    await screen.findByRole('article', { name: 'Microphone Desk mic' });
    for (const ts of [1700000000001, 1700000000002]) {
      await startRecording();
      expect(screen.getByText('Recording…')).toBeTruthy();
      now.mockReturnValue(ts);
      fireEvent.click(screen.getByRole('button', { name: 'Stop recording' }));
    }
    now.mockRestore();
    const items = screen.getAllByTestId('recording');
    expect(items.map((li) => li.querySelector('.mic-recording__name')!.textContent)).toEqual([
      'recording_1700000000002.webm',
      'recording_1700000000001.webm',
    ]);
    expect(within(items[0]).getByRole('link', { name: 'Download' }).getAttribute('download')).toBe('recording_1700000000002.webm');
    // the processing the track ran with is kept beside the recording, to compare on and off
    expect(within(items[0]).getByText('Echo cancellation: on · Noise suppression: off · Automatic gain control: on')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Delete recording_1700000000002.webm' }));
    expect(screen.getAllByTestId('recording')).toHaveLength(1);
    expect(URL.revokeObjectURL).toHaveBeenCalledTimes(1);
  });

  it('plays one recording at a time and resets it at the end', async () => {
    const setPaused = (el: HTMLMediaElement, v: boolean) => Object.defineProperty(el, 'paused', { value: v, configurable: true });
    const play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(async function (this: HTMLMediaElement) {
      setPaused(this, false);
    });
    const pause = vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(function (this: HTMLMediaElement) {
      setPaused(this, true);
    });
    renderWithShell(<MicrophonePage />);
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Desk mic' }));
    await screen.findByRole('article', { name: 'Microphone Desk mic' });
    for (let i = 0; i < 2; i++) {
      await startRecording();
      fireEvent.click(screen.getByRole('button', { name: 'Stop recording' }));
    }
    await waitFor(() => expect(screen.getAllByTestId('recording')).toHaveLength(2));
    const [a, b] = screen.getAllByTestId('recording');
    fireEvent.click(within(a).getByRole('button', { name: 'Play' }));
    expect(within(a).getByRole('button', { name: 'Pause' })).toBeTruthy();
    fireEvent.click(within(b).getByRole('button', { name: 'Play' }));
    expect(within(a).getByRole('button', { name: 'Play' })).toBeTruthy();
    expect(within(b).getByRole('button', { name: 'Pause' })).toBeTruthy();
    expect(play).toHaveBeenCalledTimes(2);
    expect(pause).toHaveBeenCalled();
    const audio = b.querySelector('audio')!;
    audio.currentTime = 1;
    fireEvent.ended(audio);
    expect(within(b).getByRole('button', { name: 'Play' })).toBeTruthy();
    expect(audio.currentTime).toBe(0);
  });

  it('measures noise every 100 ms for 3 s and prints the average with 2 decimals', async () => {
    renderWithShell(<MicrophonePage />);
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Desk mic' }));
    await screen.findByRole('article', { name: 'Microphone Desk mic' });
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    signal = 0.0123;
    fireEvent.click(screen.getByRole('button', { name: 'Measure noise level' }));
    expect((screen.getByRole('button', { name: 'Measuring…' }) as HTMLButtonElement).disabled).toBe(true);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2900);
    });
    expect(screen.queryByTestId('noise-result')).toBeNull();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(200);
    });
    expect(screen.getByTestId('noise-result').textContent).toContain('Desk mic: 1.23% (−38.2 dBFS)');
    expect((screen.getByRole('button', { name: 'Measure noise level' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('connects a delay line of at most 10 s when delayed playback is on', async () => {
    renderWithShell(<MicrophonePage />);
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Desk mic' }));
    await screen.findByRole('article', { name: 'Microphone Desk mic' });
    fireEvent.change(screen.getByRole('slider'), { target: { value: '5' } });
    expect(screen.getByText('Delay: 5 s')).toBeTruthy();
    fireEvent.click(screen.getByRole('switch', { name: 'Delayed playback' }));
    const ctx = contexts[0];
    await vi.waitFor(() => expect(ctx.createDelay).toHaveBeenCalledWith(10));
    const delay = ctx.createDelay.mock.results[0].value as FakeNode & { delayTime: { value: number } };
    expect(delay.delayTime.value).toBe(5);
    expect(delay.connect).toHaveBeenCalledWith(ctx.destination);
  });

  it('stops every track and closes the audio context when the page is left', async () => {
    const { unmount } = renderWithShell(<MicrophonePage />);
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Desk mic' }));
    await screen.findByRole('article', { name: 'Microphone Desk mic' });
    fireEvent.click(screen.getByRole('button', { name: 'Record' }));
    unmount();
    expect(streams.length).toBeGreaterThanOrEqual(2);
    for (const s of streams) expect(s.tracks[0].readyState).toBe('ended');
    expect(contexts).toHaveLength(1);
    expect(contexts[0].close).toHaveBeenCalled();
  });
});
