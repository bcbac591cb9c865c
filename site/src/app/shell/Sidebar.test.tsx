import { act, render } from '@testing-library/react';
import { createRef } from 'react';
import { describe, expect, it, vi } from 'vitest';

vi.mock('./SidebarPanel', () => {
  throw new Error('chunk failed');
});

describe('the drawer whose chunk cannot be loaded', () => {
  it('closes the menu again instead of throwing', async () => {
    const { Sidebar } = await import('./Sidebar');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const onClose = vi.fn();
    const { container } = render(
      <Sidebar id="side" open onClose={onClose} toggleRef={createRef<HTMLButtonElement>()} />,
    );
    await vi.waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    await act(async () => {});
    expect(container.innerHTML).toBe('');
    expect(warn).toHaveBeenCalledTimes(1);
  });
});
