import { useCallback, useEffect, useRef, useState } from 'react';
import { FFT_SIZE } from './audioMath';
import { mediaErrorKey, type MicErrorKey } from './errors';

export interface MicDevice {
  deviceId: string;
  /** The browser's label; empty before permission (the page then shows 'Microphone N'). */
  label: string;
}

/** The three processing options a visitor can switch; each change re-acquires the streams. */
export interface Processing {
  echoCancellation: boolean;
  noiseSuppression: boolean;
  autoGainControl: boolean;
}

export const DEFAULT_PROCESSING: Processing = { echoCancellation: true, noiseSuppression: true, autoGainControl: true };

/** What the track reports it actually runs with (getSettings()). */
export interface TrackSettings {
  sampleRate?: number;
  channelCount?: number;
  latency?: number;
  echoCancellation?: boolean;
  noiseSuppression?: boolean;
  autoGainControl?: boolean;
}

/** One open microphone: its stream and the analyser the meters and visualizers read. */
export interface MicInput {
  deviceId: string;
  stream: MediaStream;
  source: MediaStreamAudioSourceNode;
  analyser: AnalyserNode;
  settings: TrackSettings;
}

export type DeviceStatus = 'loading' | 'ready' | 'none' | 'error';

function stopStream(stream: MediaStream | null | undefined) {
  stream?.getTracks().forEach((t) => t.stop());
}

/**
 * Chrome lists the system's default and communications devices a second time under the ids
 * "default" and "communications"; those duplicates are dropped when real entries exist.
 */
export function audioInputs(devices: readonly MediaDeviceInfo[]): MicDevice[] {
  const inputs = devices.filter((d) => d.kind === 'audioinput');
  const real = inputs.filter((d) => d.deviceId !== 'default' && d.deviceId !== 'communications');
  return (real.length ? real : inputs).map((d) => ({ deviceId: d.deviceId, label: d.label }));
}

/**
 * Owns the microphone page's MediaStreams and its one AudioContext: lists the microphones
 * (asking for permission once so labels are known), opens a stream and an analyser for every
 * ticked microphone, re-opens them when the processing options change, and on leaving the page
 * stops every track and closes the context — no microphone indicator is left on.
 */
export function useMicrophones() {
  const [devices, setDevices] = useState<MicDevice[]>([]);
  const [status, setStatus] = useState<DeviceStatus>('loading');
  const [selected, setSelected] = useState<string[]>([]);
  const [processing, setProcessing] = useState<Processing>(DEFAULT_PROCESSING);
  const [inputs, setInputs] = useState<MicInput[]>([]);
  const [error, setError] = useState<MicErrorKey | null>(null);
  const ctxRef = useRef<AudioContext | null>(null);
  const inputsRef = useRef<MicInput[]>([]);

  /** The page's AudioContext, created on first use (after a click, so it may start) and resumed. */
  const audioContext = useCallback((): AudioContext => {
    if (!ctxRef.current || ctxRef.current.state === 'closed') ctxRef.current = new AudioContext();
    if (ctxRef.current.state === 'suspended') void ctxRef.current.resume().catch(() => undefined);
    return ctxRef.current;
  }, []);

  // List the microphones: one short permission request so the labels are filled in, then
  // enumerateDevices, again whenever a device is plugged in or out.
  useEffect(() => {
    let cancelled = false;
    const md = typeof navigator !== 'undefined' ? navigator.mediaDevices : undefined;
    if (!md?.getUserMedia || !md.enumerateDevices) {
      // Browsers leave mediaDevices out of a page served over plain http (not localhost).
      setStatus('error');
      setError(globalThis.isSecureContext === false ? 'errors.insecure' : 'errors.deviceAccess');
      return;
    }
    const list = async () => {
      const found = audioInputs(await md.enumerateDevices());
      if (cancelled) return;
      setDevices(found);
      setStatus(found.length ? 'ready' : 'none');
      setSelected((sel) => sel.filter((id) => found.some((d) => d.deviceId === id)));
    };
    (async () => {
      try {
        const probe = await md.getUserMedia({ audio: true });
        stopStream(probe);
      } catch (err) {
        if (cancelled) return;
        const key = mediaErrorKey(err);
        if (key === 'errors.noDevices') {
          setStatus('none');
          return;
        }
        setError(key);
      }
      try {
        await list();
      } catch (err) {
        if (!cancelled) {
          setStatus('error');
          setError(mediaErrorKey(err));
        }
      }
    })();
    const onChange = () => void list().catch(() => undefined);
    md.addEventListener?.('devicechange', onChange);
    return () => {
      cancelled = true;
      md.removeEventListener?.('devicechange', onChange);
    };
  }, []);

  // Open a stream and an analyser per ticked microphone; re-open all of them when the
  // selection or the processing options change (constraints apply at acquisition).
  // JSON, not a join: before permission is granted the browser lists one microphone with an
  // empty id, and [''] joined is '' — the same key as no selection, so ticking it did nothing.
  const selectedKey = JSON.stringify(selected);
  const processingKey = `${processing.echoCancellation}|${processing.noiseSuppression}|${processing.autoGainControl}`;
  useEffect(() => {
    if (selected.length === 0) {
      setInputs([]);
      return;
    }
    let cancelled = false;
    const opened: MicInput[] = [];
    (async () => {
      let ctx: AudioContext;
      try {
        ctx = audioContext();
      } catch {
        setError('errors.deviceAccess');
        return;
      }
      for (const deviceId of selected) {
        try {
          // An empty id (no permission yet) names no device: ask for a microphone, so the
          // browser asks for the permission again or says it is refused.
          const stream = await navigator.mediaDevices.getUserMedia({
            audio: deviceId ? { deviceId: { exact: deviceId }, ...processing } : { ...processing },
          });
          if (cancelled) {
            stopStream(stream);
            return;
          }
          const source = ctx.createMediaStreamSource(stream);
          const analyser = ctx.createAnalyser();
          analyser.fftSize = FFT_SIZE;
          source.connect(analyser);
          const settings = (stream.getAudioTracks()[0]?.getSettings?.() ?? {}) as TrackSettings;
          opened.push({ deviceId, stream, source, analyser, settings });
        } catch (err) {
          if (cancelled) return;
          setError(mediaErrorKey(err) === 'errors.microphonesAccess' ? 'errors.microphonesAccess' : 'errors.deviceAccess');
        }
      }
      if (!cancelled) {
        inputsRef.current = opened;
        setInputs([...opened]);
      }
    })();
    return () => {
      cancelled = true;
      for (const input of opened) {
        input.source.disconnect();
        stopStream(input.stream);
      }
      inputsRef.current = [];
    };
    // selected/processing are read through their keys
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selectedKey, processingKey, audioContext]);

  // Leaving the page: close the context (the streams are stopped by the effect above).
  useEffect(
    () => () => {
      for (const input of inputsRef.current) stopStream(input.stream);
      const ctx = ctxRef.current;
      ctxRef.current = null;
      if (ctx && ctx.state !== 'closed') void ctx.close().catch(() => undefined);
    },
    [],
  );

  const toggle = useCallback(
    (deviceId: string) => {
      // the click is the user gesture that lets the context start
      try {
        audioContext();
      } catch {
        /* reported when the streams open */
      }
      setSelected((sel) => (sel.includes(deviceId) ? sel.filter((id) => id !== deviceId) : [...sel, deviceId]));
    },
    [audioContext],
  );

  const setOption = useCallback((option: keyof Processing, value: boolean) => {
    setProcessing((p) => ({ ...p, [option]: value }));
  }, []);

  return {
    devices,
    status,
    selected,
    toggle,
    processing,
    setOption,
    inputs,
    error,
    setError,
    audioContext: ctxRef,
  };
}
