import { useCallback, useEffect, useRef, useState } from 'react';
import { recordingFileName } from './audioMath';
import type { TrackSettings } from './useMicrophones';

/** A recording kept in the page only: never uploaded. */
export interface Recording {
  id: string;
  blob: Blob;
  url: string;
  timestamp: number;
  name: string;
  /** The processing the track ran with, so recordings made with it on and off can be compared. */
  settings?: TrackSettings;
}

/** The container the spec asks for; the codec is the browser's (Opus in Chromium and Firefox). */
export function recorderMimeType(isSupported: (t: string) => boolean): string | undefined {
  for (const t of ['audio/webm;codecs=opus', 'audio/webm']) if (isSupported(t)) return t;
  return undefined;
}

/**
 * Records the one selected microphone's stream into webm audio with MediaRecorder. Recordings
 * go to the front of the list (newest first); their object URLs are revoked when deleted and
 * when the page is left. A stream that goes away (selection changed) ends the recording.
 */
export function useRecorder(stream: MediaStream | null, onStartError: () => void) {
  const [recordings, setRecordings] = useState<Recording[]>([]);
  const [recording, setRecording] = useState(false);
  const recorderRef = useRef<MediaRecorder | null>(null);
  const urlsRef = useRef(new Set<string>());

  const start = useCallback((settings?: TrackSettings) => {
    if (!stream) return;
    try {
      const mimeType = recorderMimeType((t) => typeof MediaRecorder !== 'undefined' && MediaRecorder.isTypeSupported(t));
      const recorder = new MediaRecorder(stream, mimeType ? { mimeType } : undefined);
      const chunks: Blob[] = [];
      recorder.ondataavailable = (e) => {
        if (e.data.size) chunks.push(e.data);
      };
      recorder.onstop = () => {
        recorderRef.current = null;
        setRecording(false);
        if (!chunks.length) return;
        const timestamp = Date.now();
        const blob = new Blob(chunks, { type: 'audio/webm' });
        const url = URL.createObjectURL(blob);
        urlsRef.current.add(url);
        setRecordings((list) => [{ id: `${timestamp}-${list.length}`, blob, url, timestamp, name: recordingFileName(timestamp), settings }, ...list]);
      };
      recorder.start();
      recorderRef.current = recorder;
      setRecording(true);
    } catch {
      recorderRef.current = null;
      setRecording(false);
      onStartError();
    }
  }, [stream, onStartError]);

  const stop = useCallback(() => {
    const r = recorderRef.current;
    if (r && r.state !== 'inactive') r.stop();
  }, []);

  // The stream changed or went away: finish what was being recorded.
  useEffect(() => () => stop(), [stream, stop]);

  const remove = useCallback((id: string) => {
    setRecordings((list) => {
      const gone = list.find((r) => r.id === id);
      if (gone) {
        URL.revokeObjectURL(gone.url);
        urlsRef.current.delete(gone.url);
      }
      return list.filter((r) => r.id !== id);
    });
  }, []);

  useEffect(() => {
    const urls = urlsRef.current;
    return () => {
      const r = recorderRef.current;
      if (r) {
        r.onstop = null;
        if (r.state !== 'inactive') r.stop();
      }
      urls.forEach((u) => URL.revokeObjectURL(u));
      urls.clear();
    };
  }, []);

  return { recordings, recording, start, stop, remove };
}
