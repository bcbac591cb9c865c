// Measured frame rate: frames the browser really presented, counted with
// requestVideoFrameCallback (its presentedFrames also counts frames between two callbacks).
import { useEffect, useState } from 'react';
import { averageFps, pruneSamples, type FrameSample } from './report';

type FrameCallbackVideo = HTMLVideoElement & {
  requestVideoFrameCallback?: (cb: (now: number, meta: { presentedFrames?: number }) => void) => number;
  cancelVideoFrameCallback?: (handle: number) => void;
};

export function canMeasureFps(video: HTMLVideoElement | null): boolean {
  return !!video && typeof (video as FrameCallbackVideo).requestVideoFrameCallback === 'function';
}

/**
 * Calls onSample for every presented frame of the video until the returned function is called.
 * Returns null when the browser has no requestVideoFrameCallback.
 */
export function watchFrames(video: HTMLVideoElement, onSample: (s: FrameSample) => void): (() => void) | null {
  const v = video as FrameCallbackVideo;
  if (!v.requestVideoFrameCallback) return null;
  let handle = 0;
  let stopped = false;
  let count = 0;
  const cb = (now: number, meta: { presentedFrames?: number }) => {
    if (stopped) return;
    count++;
    onSample({ time: now, frames: typeof meta.presentedFrames === 'number' ? meta.presentedFrames : count });
    handle = v.requestVideoFrameCallback!(cb);
  };
  handle = v.requestVideoFrameCallback(cb);
  return () => {
    stopped = true;
    v.cancelVideoFrameCallback?.(handle);
  };
}

/** The live frame rate of a playing video, averaged over the last second, refreshed twice a second. */
export function useMeasuredFps(video: HTMLVideoElement | null, stream: MediaStream | null): number | null {
  const [fps, setFps] = useState<number | null>(null);
  useEffect(() => {
    setFps(null);
    if (!video || !stream) return;
    let samples: FrameSample[] = [];
    const stopWatching = watchFrames(video, (s) => {
      samples.push(s);
      samples = pruneSamples(samples);
    });
    if (!stopWatching) return;
    const timer = setInterval(() => setFps(averageFps(samples)), 500);
    return () => {
      stopWatching();
      clearInterval(timer);
    };
  }, [video, stream]);
  return fps;
}

/**
 * Plays a stream in a detached video for `ms` after its first frame and returns the measured
 * frame rate (null if no frame came within 3 s, or without requestVideoFrameCallback).
 */
export async function measureStreamFps(stream: MediaStream, ms: number, signal: AbortSignal): Promise<number | null> {
  const video = document.createElement('video');
  video.muted = true;
  video.playsInline = true;
  video.srcObject = stream;
  const samples: FrameSample[] = [];
  let stopWatching: (() => void) | null = null;
  try {
    await video.play().catch(() => undefined);
    const result = await new Promise<number | null>((resolve) => {
      const done = () => resolve(averageFps(samples, ms + 100));
      const noFrame = setTimeout(done, 3000);
      signal.addEventListener('abort', () => resolve(null), { once: true });
      stopWatching = watchFrames(video, (s) => {
        if (samples.length === 0) {
          clearTimeout(noFrame);
          setTimeout(done, ms);
        }
        samples.push(s);
      });
      if (!stopWatching) {
        clearTimeout(noFrame);
        resolve(null);
      }
    });
    return result;
  } finally {
    (stopWatching as (() => void) | null)?.();
    video.pause();
    video.srcObject = null;
  }
}
