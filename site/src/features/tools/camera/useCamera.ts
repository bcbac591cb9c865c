// The camera's MediaStream lifecycle: off → loading → on, or error. This hook
// owns every stream it asks for: a stream that arrives after a newer start/stop, or after the
// page is gone, is stopped at once, and leaving the page stops every track — no camera light
// stays on.
import { useCallback, useEffect, useRef, useState } from 'react';
import { ERROR_CLEAR_MS, cameraErrorKey, unavailableKey, type CameraErrorKey } from './errors';
import { cameraDevices, type CameraDevice } from './report';

export type CameraStatus = 'off' | 'loading' | 'on' | 'error';
export type Facing = 'user' | 'environment';

export const IDEAL_WIDTH = 1280;
export const IDEAL_HEIGHT = 720;

/** Video only, ideally 1280×720; a chosen device wins over the facing mode. */
export function videoConstraints(deviceId: string | null, facing: Facing): MediaTrackConstraints {
  const c: MediaTrackConstraints = { width: { ideal: IDEAL_WIDTH }, height: { ideal: IDEAL_HEIGHT } };
  if (deviceId) c.deviceId = { exact: deviceId };
  else c.facingMode = { ideal: facing };
  return c;
}

export function stopStream(stream: MediaStream | null | undefined): void {
  stream?.getTracks().forEach((t) => t.stop());
}

function mediaDevices(): MediaDevices | null {
  return typeof navigator !== 'undefined' && navigator.mediaDevices ? navigator.mediaDevices : null;
}

export interface Camera {
  status: CameraStatus;
  stream: MediaStream | null;
  track: MediaStreamTrack | null;
  error: CameraErrorKey | null;
  devices: CameraDevice[];
  deviceId: string | null;
  facing: Facing;
  start: () => Promise<void>;
  stop: () => void;
  selectDevice: (deviceId: string) => void;
  switchFacing: () => void;
  /** Shows a message for 5 s without touching the stream (the fullscreen failure). */
  showError: (key: CameraErrorKey) => void;
}

export function useCamera(): Camera {
  const [status, setStatus] = useState<CameraStatus>('off');
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [error, setError] = useState<CameraErrorKey | null>(null);
  const [devices, setDevices] = useState<CameraDevice[]>([]);
  const [deviceId, setDeviceId] = useState<string | null>(null);
  const [facing, setFacing] = useState<Facing>('user');

  const streamRef = useRef<MediaStream | null>(null);
  const statusRef = useRef<CameraStatus>('off');
  const config = useRef<{ deviceId: string | null; facing: Facing }>({ deviceId: null, facing: 'user' });
  // Bumped by every start and stop: a getUserMedia answer for an older request is thrown away.
  const request = useRef(0);
  const mounted = useRef(false);
  const errorTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const setStatusBoth = useCallback((s: CameraStatus) => {
    statusRef.current = s;
    setStatus(s);
  }, []);

  const release = useCallback(() => {
    stopStream(streamRef.current);
    streamRef.current = null;
    setStream(null);
  }, []);

  const clearError = useCallback(() => {
    clearTimeout(errorTimer.current);
    setError(null);
  }, []);

  const showError = useCallback(
    (key: CameraErrorKey) => {
      clearTimeout(errorTimer.current);
      setError(key);
      errorTimer.current = setTimeout(() => {
        setError(null);
        if (statusRef.current === 'error') setStatusBoth('off');
      }, ERROR_CLEAR_MS);
    },
    [setStatusBoth],
  );

  const refreshDevices = useCallback(async () => {
    const md = mediaDevices();
    if (!md?.enumerateDevices) return;
    try {
      const list = await md.enumerateDevices();
      if (mounted.current) setDevices(cameraDevices(list));
    } catch {
      /* the list stays as it was */
    }
  }, []);

  const start = useCallback(async () => {
    if (!mounted.current) return;
    const id = ++request.current;
    release();
    clearError();
    setStatusBoth('loading');
    try {
      const md = mediaDevices();
      if (!md?.getUserMedia) {
        setStatusBoth('error');
        showError(unavailableKey());
        return;
      }
      const s = await md.getUserMedia({ video: videoConstraints(config.current.deviceId, config.current.facing), audio: false });
      if (id !== request.current || !mounted.current) {
        stopStream(s);
        return;
      }
      streamRef.current = s;
      setStream(s);
      setStatusBoth('on');
      // unplugged or taken by the system: the picture is gone, say so by turning off
      s.getVideoTracks()[0]?.addEventListener('ended', () => {
        if (streamRef.current !== s) return;
        release();
        setStatusBoth('off');
      });
      void refreshDevices(); // labels are revealed once access is granted
    } catch (err) {
      if (id !== request.current || !mounted.current) return;
      setStatusBoth('error');
      showError(cameraErrorKey(err));
    }
  }, [clearError, refreshDevices, release, setStatusBoth, showError]);

  const stop = useCallback(() => {
    request.current++;
    release();
    clearError();
    setStatusBoth('off');
  }, [clearError, release, setStatusBoth]);

  const restartIfActive = useCallback(() => {
    if (statusRef.current === 'on' || statusRef.current === 'loading') void start();
  }, [start]);

  const selectDevice = useCallback(
    (id: string) => {
      config.current.deviceId = id || null;
      setDeviceId(id || null);
      restartIfActive();
    },
    [restartIfActive],
  );

  const switchFacing = useCallback(() => {
    const next: Facing = config.current.facing === 'user' ? 'environment' : 'user';
    config.current = { deviceId: null, facing: next };
    setFacing(next);
    setDeviceId(null);
    restartIfActive();
  }, [restartIfActive]);

  useEffect(() => {
    // The counter object itself: leaving must outdate the request in flight then, whatever its
    // number has become by that time.
    const requests = request;
    mounted.current = true;
    void refreshDevices();
    const md = mediaDevices();
    const onChange = () => void refreshDevices();
    md?.addEventListener?.('devicechange', onChange);
    return () => {
      mounted.current = false;
      requests.current++;
      md?.removeEventListener?.('devicechange', onChange);
      clearTimeout(errorTimer.current);
      stopStream(streamRef.current);
      streamRef.current = null;
    };
  }, [refreshDevices]);

  return {
    status,
    stream,
    track: stream?.getVideoTracks()[0] ?? null,
    error,
    devices,
    deviceId,
    facing,
    start,
    stop,
    selectDevice,
    switchFacing,
    showError,
  };
}
