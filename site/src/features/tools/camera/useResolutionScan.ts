// The resolution scan: opens the camera in each standard mode with exact width and height (and,
// where the browser knows it, resizeMode 'none', so a mode the browser would only produce by
// scaling another one does not count), keeps the modes the track really runs at, and measures
// each one's frame rate. One stream at a time, each stopped before the next; cancel and leaving
// the page stop the open one.
import { useCallback, useEffect, useRef, useState } from 'react';
import { measureStreamFps } from './frameRate';
import { SCAN_MODES, type ScanResult } from './report';
import { stopStream } from './useCamera';

/** How long each delivered mode is watched to measure its frame rate. */
export const SCAN_MEASURE_MS = 1000;

export interface ScanTarget {
  deviceId: string | null;
}

export function scanConstraints(mode: { width: number; height: number }, target: ScanTarget, native: boolean): MediaTrackConstraints {
  const c: MediaTrackConstraints & { resizeMode?: ConstrainDOMString } = {
    width: { exact: mode.width },
    height: { exact: mode.height },
  };
  if (target.deviceId) c.deviceId = { exact: target.deviceId };
  if (native) c.resizeMode = { exact: 'none' };
  return c;
}

export interface ResolutionScan {
  running: boolean;
  done: number;
  total: number;
  results: ScanResult[];
  /** Runs the scan to its end (or cancel); resolves false when it was cancelled. */
  run: (target: ScanTarget) => Promise<boolean>;
  cancel: () => void;
}

export function useResolutionScan(): ResolutionScan {
  const [running, setRunning] = useState(false);
  const [done, setDone] = useState(0);
  const [results, setResults] = useState<ScanResult[]>([]);
  const abort = useRef<AbortController | null>(null);

  const cancel = useCallback(() => abort.current?.abort(), []);

  const run = useCallback(async (target: ScanTarget) => {
    abort.current?.abort();
    const ctl = new AbortController();
    abort.current = ctl;
    setRunning(true);
    setDone(0);
    setResults([]);
    const md = navigator.mediaDevices;
    const supported = md?.getSupportedConstraints?.() as Record<string, boolean> | undefined;
    const native = !!supported?.resizeMode;
    try {
      for (let i = 0; i < SCAN_MODES.length && !ctl.signal.aborted; i++) {
        const mode = SCAN_MODES[i];
        let stream: MediaStream | null = null;
        try {
          stream = await md.getUserMedia({ video: scanConstraints(mode, target, native), audio: false });
          if (ctl.signal.aborted) break;
          const s = stream.getVideoTracks()[0]?.getSettings() ?? {};
          if (s.width === mode.width && s.height === mode.height) {
            const fps = await measureStreamFps(stream, SCAN_MEASURE_MS, ctl.signal);
            if (ctl.signal.aborted) break;
            setResults((r) => [...r, { ...mode, fps }]);
          }
        } catch {
          /* OverconstrainedError and the like: the camera does not deliver this mode */
        } finally {
          stopStream(stream);
        }
        if (!ctl.signal.aborted) setDone(i + 1);
      }
    } finally {
      if (abort.current === ctl) {
        abort.current = null;
        setRunning(false);
      }
    }
    return !ctl.signal.aborted;
  }, []);

  useEffect(() => () => abort.current?.abort(), []);

  return { running, done, total: SCAN_MODES.length, results, run, cancel };
}
