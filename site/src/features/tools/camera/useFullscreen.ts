// Fullscreen for the video frame that follows the browser: Esc, F11 or another element taking
// over all arrive as fullscreenchange, and the button's state follows them.
import { useCallback, useEffect, useState, type RefObject } from 'react';

export function useFullscreen(target: RefObject<HTMLElement | null>, onError: () => void) {
  const [isFullscreen, setIsFullscreen] = useState(false);

  useEffect(() => {
    const sync = () => setIsFullscreen(!!target.current && document.fullscreenElement === target.current);
    document.addEventListener('fullscreenchange', sync);
    return () => document.removeEventListener('fullscreenchange', sync);
  }, [target]);

  const toggle = useCallback(async () => {
    try {
      if (document.fullscreenElement) await document.exitFullscreen();
      else if (target.current?.requestFullscreen) await target.current.requestFullscreen();
      else throw new Error('fullscreen is not available');
    } catch {
      onError();
    }
  }, [onError, target]);

  return { isFullscreen, toggle };
}
