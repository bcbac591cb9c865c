import { render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useLeaveGuard } from './useLeaveGuard';

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
});
