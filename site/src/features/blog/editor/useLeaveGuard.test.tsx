import { render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GUARD_KEY, useLeaveGuard } from './useLeaveGuard';

function Guarded({ when }: { when: boolean }) {
  useLeaveGuard(when, 'Leave?');
  return (
    <div>
      <a href="/blog">away</a>
      <a href="https://example.com/">outside</a>
    </div>
  );
}

afterEach(() => {
  vi.restoreAllMocks();
});

function click(el: Element) {
  const ev = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 });
  el.dispatchEvent(ev);
  return ev;
}

describe('useLeaveGuard', () => {
  it('asks before an in-app link is followed with unsaved changes, and stays when refused', () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    const { getByText } = render(<Guarded when />);
    const ev = click(getByText('away'));
    expect(confirm).toHaveBeenCalledWith('Leave?');
    expect(ev.defaultPrevented).toBe(true);
  });

  it('lets the link go when the writer agrees', () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const { getByText } = render(<Guarded when />);
    const ev = click(getByText('away'));
    // the router (or the browser) follows it: only the default jsdom navigation is stopped here
    ev.preventDefault();
    expect(window.confirm).toHaveBeenCalledTimes(1);
  });

  it('asks the browser before the tab closes', () => {
    render(<Guarded when />);
    const ev = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(ev);
    expect(ev.defaultPrevented).toBe(true);
  });

  it('does nothing when everything is saved', () => {
    const confirm = vi.spyOn(window, 'confirm');
    const { getByText } = render(<Guarded when={false} />);
    const ev = click(getByText('away'));
    ev.preventDefault();
    expect(confirm).not.toHaveBeenCalled();
    const unload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(unload);
    expect(unload.defaultPrevented).toBe(false);
  });

  // Back in the browser: the page's history entry is doubled while there are unsaved changes, so
  // Back stays on the page (the editor keeps its text) and asks there.
  describe('the Back button', () => {
    const onGuard = () => (window.history.state as Record<string, unknown> | null)?.[GUARD_KEY] === true;
    const back = () =>
      new Promise<void>((resolve) => {
        window.addEventListener('popstate', () => setTimeout(resolve, 0), { once: true });
        window.history.back();
      });

    it('adds a guard entry for the page, and asks on Back; refused, the guard entry is back', async () => {
      window.history.replaceState({ idx: 3, key: 'k' }, '', '/blog/new');
      const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
      const { unmount } = render(<Guarded when />);
      expect(onGuard()).toBe(true);
      expect(window.history.state).toMatchObject({ idx: 3, key: 'k' }); // the router sees the same entry
      await back();
      expect(confirm).toHaveBeenCalledWith('Leave?');
      expect(window.location.pathname).toBe('/blog/new');
      expect(onGuard()).toBe(true);
      unmount();
      await waitFor(() => expect(onGuard()).toBe(false)); // closed without leaving: the guard entry goes
    });

    it('goes back once more when the writer agrees', async () => {
      window.history.replaceState(null, '', '/blog/new');
      vi.spyOn(window, 'confirm').mockReturnValue(true);
      render(<Guarded when />);
      const historyBack = vi.spyOn(window.history, 'back');
      await back();
      expect(historyBack).toHaveBeenCalledTimes(2); // the test's Back, then the guard's own
    });

    it('drops the guard entry once the changes are saved', async () => {
      window.history.replaceState(null, '', '/blog/new');
      const confirm = vi.spyOn(window, 'confirm');
      const { rerender } = render(<Guarded when />);
      expect(onGuard()).toBe(true);
      rerender(<Guarded when={false} />);
      await waitFor(() => expect(onGuard()).toBe(false));
      expect(confirm).not.toHaveBeenCalled();
    });
  });
});
