import { useCallback, useEffect, useRef, useState } from 'react';

/** Per-file download progress: starting → downloading % → completed → cleared. */
export type DownloadState =
  | { status: 'starting'; percent: 0 }
  | { status: 'downloading'; percent: number }
  | { status: 'completed'; percent: 100 }
  | { status: 'error'; percent: number };

/** How long "completed" stays before the status is cleared. */
export const COMPLETED_CLEAR_MS = 2000;

export interface DownloadRunner {
  states: Record<number, DownloadState>;
  /** Runs one download; fetch reports percent as it reads. Resolves true on success. */
  run: (id: number, fetch: (onPercent: (percent: number) => void) => Promise<void>) => Promise<boolean>;
}

export function useDownloads(): DownloadRunner {
  const [states, setStates] = useState<Record<number, DownloadState>>({});
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());

  useEffect(() => {
    const map = timers.current;
    return () => map.forEach((t) => clearTimeout(t));
  }, []);

  const set = useCallback((id: number, s: DownloadState | null) => {
    setStates((prev) => {
      const next = { ...prev };
      if (s) next[id] = s;
      else delete next[id];
      return next;
    });
  }, []);

  const run = useCallback<DownloadRunner['run']>(
    async (id, fetch) => {
      const pending = timers.current.get(id);
      if (pending) clearTimeout(pending);
      timers.current.delete(id);
      set(id, { status: 'starting', percent: 0 });
      let last = -1;
      try {
        await fetch((percent) => {
          if (percent === last) return;
          last = percent;
          set(id, { status: 'downloading', percent });
        });
      } catch {
        set(id, { status: 'error', percent: Math.max(0, last) });
        return false;
      }
      set(id, { status: 'completed', percent: 100 });
      timers.current.set(
        id,
        setTimeout(() => {
          timers.current.delete(id);
          set(id, null);
        }, COMPLETED_CLEAR_MS),
      );
      return true;
    },
    [set],
  );

  return { states, run };
}
