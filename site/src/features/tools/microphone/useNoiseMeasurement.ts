import { useCallback, useEffect, useRef, useState } from 'react';
import { NOISE_DURATION_MS, NOISE_SAMPLE_INTERVAL_MS, noiseAverage, rms, type NoiseResult } from './audioMath';
import type { MicInput } from './useMicrophones';

/**
 * Measures the background noise of every selected microphone in turn: the RMS level
 * read every 100 ms for 3 s, averaged. Results are keyed by deviceId. Stops on leaving the page.
 */
export function useNoiseMeasurement(inputs: readonly MicInput[]) {
  const [measuring, setMeasuring] = useState(false);
  const [results, setResults] = useState<Record<string, NoiseResult>>({});
  const timer = useRef<ReturnType<typeof setInterval> | null>(null);
  const alive = useRef(true);

  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
      if (timer.current) clearInterval(timer.current);
    };
  }, []);

  const measureOne = (input: MicInput) =>
    new Promise<NoiseResult>((resolve) => {
      const buf = new Float32Array(input.analyser.fftSize);
      const levels: number[] = [];
      const started = Date.now();
      timer.current = setInterval(() => {
        input.analyser.getFloatTimeDomainData(buf);
        levels.push(rms(buf));
        if (Date.now() - started >= NOISE_DURATION_MS - NOISE_SAMPLE_INTERVAL_MS / 2 || !alive.current) {
          if (timer.current) clearInterval(timer.current);
          timer.current = null;
          resolve(noiseAverage(levels));
        }
      }, NOISE_SAMPLE_INTERVAL_MS);
    });

  const measure = useCallback(async () => {
    if (measuring || inputs.length === 0) return;
    setMeasuring(true);
    for (const input of inputs) {
      const result = await measureOne(input);
      if (!alive.current) return;
      setResults((r) => ({ ...r, [input.deviceId]: result }));
    }
    setMeasuring(false);
  }, [inputs, measuring]);

  return { measuring, results, measure };
}
