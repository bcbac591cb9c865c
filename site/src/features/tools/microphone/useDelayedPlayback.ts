import { useEffect } from 'react';
import { MAX_DELAY_BUFFER_S, clampDelay } from './audioMath';
import type { MicInput } from './useMicrophones';

/**
 * Plays the one selected microphone back through the speakers after `delaySeconds`: source →
 * DelayNode (a line of at most 10 s) → output. Disconnected when switched off, when the
 * input changes and on leaving the page.
 */
export function useDelayedPlayback(ctx: AudioContext | null, input: MicInput | null, enabled: boolean, delaySeconds: number) {
  useEffect(() => {
    if (!enabled || !ctx || !input || ctx.state === 'closed') return;
    const delay = ctx.createDelay(MAX_DELAY_BUFFER_S);
    delay.delayTime.value = clampDelay(delaySeconds);
    input.source.connect(delay);
    delay.connect(ctx.destination);
    return () => {
      try {
        input.source.disconnect(delay);
      } catch {
        /* already disconnected with its stream */
      }
      delay.disconnect();
    };
  }, [ctx, input, enabled, delaySeconds]);
}
