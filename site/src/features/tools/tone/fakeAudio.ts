// A small stand-in for the Web Audio API in jsdom (which has none), recording what the tone
// generator builds: every context, oscillator, buffer source and the values of their params.
// Test-only: imported by the component tests, never by the page.

export class FakeParam {
  value: number;
  curve: Float32Array | null = null;
  constructor(value: number) {
    this.value = value;
  }
  setValueAtTime(v: number) {
    this.value = v;
    return this;
  }
  linearRampToValueAtTime(v: number) {
    this.value = v;
    return this;
  }
  exponentialRampToValueAtTime(v: number) {
    this.value = v;
    return this;
  }
  setTargetAtTime(v: number) {
    this.value = v;
    return this;
  }
  setValueCurveAtTime(curve: Float32Array) {
    this.curve = curve;
    this.value = curve[0];
    return this;
  }
  cancelScheduledValues() {
    return this;
  }
}

class FakeNode {
  connected: unknown[] = [];
  connect(node: unknown) {
    this.connected.push(node);
    return node;
  }
  disconnect() {
    this.connected = [];
  }
}

export class FakeSource extends FakeNode {
  startedAt: number | null = null;
  stoppedAt: number | null = null;
  onended: (() => void) | null = null;
  start(when = 0) {
    this.startedAt = when;
  }
  stop(when = 0) {
    this.stoppedAt = when;
  }
  /** What the browser does when the scheduled stop time passes. */
  end() {
    this.onended?.();
  }
}

export class FakeOscillator extends FakeSource {
  type: OscillatorType = 'sine';
  frequency = new FakeParam(440);
}

export class FakeBufferSource extends FakeSource {
  buffer: { getChannelData: (i: number) => Float32Array } | null = null;
  loop = false;
}

export class FakeAudioContext {
  static instances: FakeAudioContext[] = [];
  state: AudioContextState = 'running';
  currentTime = 0;
  sampleRate = 8000;
  destination = new FakeNode();
  oscillators: FakeOscillator[] = [];
  bufferSources: FakeBufferSource[] = [];
  gains: Array<{ gain: FakeParam }> = [];
  panners: Array<{ pan: FakeParam }> = [];
  constructor() {
    FakeAudioContext.instances.push(this);
  }
  createOscillator() {
    const o = new FakeOscillator();
    this.oscillators.push(o);
    return o;
  }
  createBufferSource() {
    const b = new FakeBufferSource();
    this.bufferSources.push(b);
    return b;
  }
  createBuffer(_channels: number, length: number) {
    const data = new Float32Array(length);
    return { getChannelData: () => data };
  }
  createGain() {
    const g = Object.assign(new FakeNode(), { gain: new FakeParam(1) });
    this.gains.push(g);
    return g;
  }
  createStereoPanner() {
    const p = Object.assign(new FakeNode(), { pan: new FakeParam(0) });
    this.panners.push(p);
    return p;
  }
  resume() {
    this.state = 'running';
    return Promise.resolve();
  }
  close() {
    this.state = 'closed';
    return Promise.resolve();
  }
}
