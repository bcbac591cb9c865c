import { afterEach, describe, expect, it, vi } from 'vitest';
import { yieldToMain } from './yieldToMain';

afterEach(() => {
  vi.useRealTimers();
});

describe('yieldToMain', () => {
  it('uses the scheduler’s yield where there is one', async () => {
    const y = vi.fn(() => Promise.resolve());
    await yieldToMain({ scheduler: { yield: y } } as never);
    expect(y).toHaveBeenCalledOnce();
  });

  it('otherwise resumes after a zero timeout: not in the same task', async () => {
    vi.useFakeTimers();
    let resumed = false;
    const p = yieldToMain({} as never).then(() => (resumed = true));
    await Promise.resolve();
    expect(resumed).toBe(false);
    await vi.advanceTimersByTimeAsync(0);
    await p;
    expect(resumed).toBe(true);
  });
});
