import { useCallback, useEffect, useRef, useState } from 'react';
import { fillNoise, sweepCurve, type NoiseColor, type SweepMode, type Waveform } from './tone';

/** What to play: an oscillator of a waveform, or one of the noise colours. */
export type ToneSource = 'tone' | NoiseColor;

export interface Sound {
  source: ToneSource;
  frequency: number;
  waveform: Waveform;
  /** Gain 0–1. */
  volume: number;
  /** Stereo balance: −1 left, 0 both, 1 right. */
  pan: number;
}

export type EngineError = 'audioInit' | 'playback';
export type EngineStatus = 'stopped' | 'playing' | 'sweeping';

interface Voice {
  node: AudioScheduledSourceNode;
  osc: OscillatorNode | null;
  gain: GainNode;
  panner: StereoPannerNode | null;
  source: ToneSource;
  /** A one-shot or a sweep: its envelope is scheduled, so live changes leave it alone. */
  scheduled: boolean;
}

/** Fade time of every start, stop and change: short enough to feel instant, long enough not to click. */
const RAMP = 0.015;
/** Seconds of noise in the looped buffer: long enough that the repetition is not heard. */
const NOISE_SECONDS = 4;

type AudioContextCtor = typeof AudioContext;

/** The looped noise of a colour, made once per AudioContext (`cache` is dropped with it). */
function noiseBuffer(ctx: AudioContext, color: NoiseColor, cache: Map<NoiseColor, AudioBuffer>): AudioBuffer {
  let buf = cache.get(color);
  if (!buf) {
    buf = ctx.createBuffer(1, Math.round(ctx.sampleRate * NOISE_SECONDS), ctx.sampleRate);
    fillNoise(buf.getChannelData(0), color);
    cache.set(color, buf);
  }
  return buf;
}

/** Builds and starts one voice at `at` (silent until its gain is ramped up by the caller). */
function makeVoice(ctx: AudioContext, sound: Sound, at: number, noise: Map<NoiseColor, AudioBuffer>): Voice {
  let node: AudioScheduledSourceNode;
  let osc: OscillatorNode | null = null;
  if (sound.source === 'tone') {
    osc = ctx.createOscillator();
    osc.type = sound.waveform;
    osc.frequency.value = sound.frequency;
    node = osc;
  } else {
    const buf = ctx.createBufferSource();
    buf.buffer = noiseBuffer(ctx, sound.source, noise);
    buf.loop = true;
    node = buf;
  }
  const gain = ctx.createGain();
  gain.gain.value = 0;
  gain.gain.setValueAtTime(0, at);
  const panner = typeof ctx.createStereoPanner === 'function' ? ctx.createStereoPanner() : null;
  node.connect(gain);
  if (panner) {
    panner.pan.value = sound.pan;
    gain.connect(panner);
    panner.connect(ctx.destination);
  } else {
    gain.connect(ctx.destination);
  }
  node.start(at);
  return { node, osc, gain, panner, source: sound.source, scheduled: false };
}

/**
 * Owns the page's AudioContext: created on the first play (a user gesture, so the browser lets
 * it run), closed when the page is left, so no context keeps the audio device open. Every voice
 * is source → gain → stereo panner → destination; gain, frequency and pan changes ramp instead of
 * jumping, which is what keeps starts, stops and live changes free of clicks.
 */
export function useToneEngine(onError: (error: EngineError) => void) {
  const ctxRef = useRef<AudioContext | null>(null);
  const voiceRef = useRef<Voice | null>(null);
  const beepsRef = useRef<Voice[]>([]);
  const noiseRef = useRef(new Map<NoiseColor, AudioBuffer>());
  const [status, setStatus] = useState<EngineStatus>('stopped');
  const errorRef = useRef(onError);
  errorRef.current = onError;

  const context = useCallback((): AudioContext | null => {
    if (ctxRef.current && ctxRef.current.state !== 'closed') return ctxRef.current;
    try {
      const w = window as unknown as { AudioContext?: AudioContextCtor; webkitAudioContext?: AudioContextCtor };
      const Ctor = w.AudioContext ?? w.webkitAudioContext;
      if (!Ctor) throw new Error('Web Audio is not available');
      ctxRef.current = new Ctor();
      noiseRef.current.clear();
      return ctxRef.current;
    } catch (err) {
      console.warn('[tone] AudioContext could not be created', err);
      errorRef.current('audioInit');
      return null;
    }
  }, []);

  const resume = (ctx: AudioContext) => {
    if (ctx.state === 'suspended') {
      ctx.resume().catch((err: unknown) => {
        console.warn('[tone] AudioContext could not resume', err);
        errorRef.current('playback');
      });
    }
  };

  /** Fades a voice out from now and stops it just after; safe on a voice already ended. */
  const fadeOut = (ctx: AudioContext, v: Voice) => {
    const now = ctx.currentTime;
    try {
      v.gain.gain.cancelScheduledValues(now);
      v.gain.gain.setValueAtTime(v.gain.gain.value, now);
      v.gain.gain.linearRampToValueAtTime(0, now + RAMP);
      v.node.stop(now + RAMP + 0.005);
    } catch {
      /* already stopped */
    }
  };

  /** Gives a voice a one-shot envelope: up at `at`, down at `at + seconds`, then stopped. */
  const envelope = (v: Voice, volume: number, at: number, seconds: number) => {
    const ramp = Math.min(RAMP, seconds / 4);
    v.gain.gain.linearRampToValueAtTime(volume, at + ramp);
    v.gain.gain.setValueAtTime(volume, at + seconds - ramp);
    v.gain.gain.linearRampToValueAtTime(0, at + seconds);
    v.node.stop(at + seconds + 0.005);
  };

  const stopVoice = useCallback(() => {
    const ctx = ctxRef.current;
    const v = voiceRef.current;
    voiceRef.current = null;
    if (ctx && v) fadeOut(ctx, v);
    setStatus('stopped');
  }, []);

  const cancelBeeps = useCallback(() => {
    const ctx = ctxRef.current;
    const beeps = beepsRef.current;
    beepsRef.current = [];
    if (ctx) for (const b of beeps) fadeOut(ctx, b);
  }, []);

  /** Runs `fn` as the new main voice; a failure is the spec's 'Sound playback error'. */
  const startVoice = useCallback((build: (ctx: AudioContext, now: number) => Voice, nextStatus: EngineStatus): boolean => {
    const ctx = context();
    if (!ctx) return false;
    try {
      resume(ctx);
      const old = voiceRef.current;
      if (old) fadeOut(ctx, old);
      const v = build(ctx, ctx.currentTime);
      voiceRef.current = v;
      v.node.onended = () => {
        if (voiceRef.current === v) {
          voiceRef.current = null;
          setStatus('stopped');
        }
        v.gain.disconnect();
        v.panner?.disconnect();
      };
      setStatus(nextStatus);
      return true;
    } catch (err) {
      console.warn('[tone] playback failed', err);
      errorRef.current('playback');
      stopVoice();
      return false;
    }
  }, [context, stopVoice]);

  /** Plays `sound` until stop(), or for `seconds` when given (the one-shot). */
  const start = useCallback(
    (sound: Sound, seconds?: number) =>
      startVoice((ctx, now) => {
        const v = makeVoice(ctx, sound, now, noiseRef.current);
        if (seconds) {
          v.scheduled = true;
          envelope(v, sound.volume, now, seconds);
        } else v.gain.gain.linearRampToValueAtTime(sound.volume, now + RAMP);
        return v;
      }, 'playing'),
    [startVoice],
  );

  /** Sweeps a tone from `from` to `to` Hz over `seconds`, then stops by itself. */
  const sweep = useCallback(
    (sound: Sound, from: number, to: number, seconds: number, mode: SweepMode) =>
      startVoice((ctx, now) => {
        const v = makeVoice(ctx, { ...sound, source: 'tone', frequency: from }, now, noiseRef.current);
        v.scheduled = true;
        v.osc!.frequency.setValueCurveAtTime(sweepCurve(from, to, seconds, mode), now, seconds);
        envelope(v, sound.volume, now, seconds);
        return v;
      }, 'sweeping'),
    [startVoice],
  );

  /** Schedules one-shot beeps on the audio clock at `offsets` seconds from now (the preset loop). */
  const beeps = useCallback(
    (sound: Sound, offsets: number[], seconds: number): boolean => {
      const ctx = context();
      if (!ctx) return false;
      try {
        resume(ctx);
        const now = ctx.currentTime + 0.01;
        beepsRef.current = offsets.map((o) => {
          const v = makeVoice(ctx, sound, now + o, noiseRef.current);
          envelope(v, sound.volume, now + o, seconds);
          v.node.onended = () => {
            beepsRef.current = beepsRef.current.filter((b) => b !== v);
            v.gain.disconnect();
            v.panner?.disconnect();
          };
          return v;
        });
        return true;
      } catch (err) {
        console.warn('[tone] playback failed', err);
        errorRef.current('playback');
        cancelBeeps();
        return false;
      }
    },
    [context, cancelBeeps],
  );

  /** Live changes while playing: frequency, volume and balance ramp on the running voice. */
  const update = useCallback((sound: Sound) => {
    const ctx = ctxRef.current;
    const v = voiceRef.current;
    if (!ctx || !v || v.scheduled) return;
    try {
      // Another source or waveform: a new voice crossfades with the old one (an instant switch
      // of the oscillator's type can click).
      if (v.source !== sound.source || (v.osc && v.osc.type !== sound.waveform)) {
        start(sound);
        return;
      }
      const now = ctx.currentTime;
      if (v.osc) {
        const f = v.osc.frequency;
        if (Math.abs(f.value - sound.frequency) > 1e-6) {
          f.cancelScheduledValues(now);
          f.setValueAtTime(f.value, now);
          f.exponentialRampToValueAtTime(sound.frequency, now + RAMP * 2);
        }
      }
      const g = v.gain.gain;
      g.cancelScheduledValues(now);
      g.setValueAtTime(g.value, now);
      g.linearRampToValueAtTime(sound.volume, now + RAMP * 2);
      if (v.panner) v.panner.pan.setTargetAtTime(sound.pan, now, RAMP / 3);
    } catch (err) {
      console.warn('[tone] live update failed', err);
      errorRef.current('playback');
    }
  }, [start]);

  // Leaving the page ends every voice and closes the context (the device is released).
  useEffect(
    () => () => {
      const ctx = ctxRef.current;
      ctxRef.current = null;
      voiceRef.current = null;
      beepsRef.current = [];
      if (ctx && ctx.state !== 'closed') ctx.close().catch(() => undefined);
    },
    [],
  );

  return { status, start, stop: stopVoice, sweep, beeps, cancelBeeps, update };
}

export type ToneEngine = ReturnType<typeof useToneEngine>;
