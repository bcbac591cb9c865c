/** The Prioritized Task Scheduling API's yield, where the browser has it (Chromium 129+, Firefox 142+). */
type WithScheduler = typeof globalThis & { scheduler?: { yield?: () => Promise<void> } };

/**
 * Ends the current task and resumes in a new one, so a long piece of main-thread work done in
 * steps lets the browser paint and answer input between them: on a slow phone one step of the
 * IP report's collector (the time zone's first Intl formatter, the user-agent parse, a WebGL
 * context) is 30–60 ms, and run back to back they made one task of more than 150 ms. The
 * scheduler's yield resumes ahead of other queued tasks; elsewhere a zero timeout does the same
 * at the back of the queue.
 */
export function yieldToMain(g: WithScheduler = globalThis): Promise<void> {
  const s = g.scheduler;
  if (typeof s?.yield === 'function') return s.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
