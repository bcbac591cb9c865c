import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { initTestI18n, json, renderWithShell, stubFetch } from '../../../test/utils';
import { saveAccountState, useAccountStates, useSaveAccountState, type AccountState } from '../accountStates';
import { AccountSlotList, SlotThumbnail } from './SlotThumbnail';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const png = () => new Response(new Blob([PNG], { type: 'image/png' }), { headers: { 'Content-Type': 'image/png' } });

/** The picture in a slot's button (decorative there: the button's text names the slot). */
const thumbOf = (slot: string) =>
  screen.getByRole('button', { name: new RegExp(`^Account slot ${slot} —`) }).querySelector('img');

const states: AccountState[] = [
  { slot: 'auto', size: 10, updatedAt: '2026-11-23T10:00:00Z', hasScreenshot: true, core: 'fceumm' },
  { slot: '2', size: 10, updatedAt: '2026-11-23T11:00:00Z', hasScreenshot: true, core: 'fceumm' },
  { slot: '3', size: 10, updatedAt: '2026-11-23T11:05:00Z', hasScreenshot: false, core: 'fceumm' },
];

describe('save-slot thumbnails', () => {
  beforeAll(async () => {
    await initTestI18n('en');
  });
  beforeEach(() => {
    let n = 0;
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => `blob:shot-${++n}`), revokeObjectURL: vi.fn() }));
  });
  afterEach(() => vi.unstubAllGlobals());

  it('shows the pictures of the slots that have one, at a fixed size, and empty boxes for the rest', async () => {
    const fetch = stubFetch({ 'GET /api/games/7/states/2/screenshot': () => png() });
    const onSelect = vi.fn();
    renderWithShell(
      <AccountSlotList gameId={7} states={states} selected="1" onSelect={onSelect} formatDate={(iso) => iso.slice(11, 16)} />,
    );
    await waitFor(() => expect(thumbOf('2')).not.toBeNull());
    const img = thumbOf('2')!;
    expect(img.getAttribute('src')).toMatch(/^blob:shot-/);
    expect(img.getAttribute('width')).toBe('96');
    expect(img.getAttribute('height')).toBe('72');
    // The button is named once, by its text; the picture adds no second name.
    expect(img.getAttribute('alt')).toBe('');
    expect(screen.getByRole('button', { name: 'Account slot 2 — 11:00' })).toBeTruthy();
    // Slot 3 has a state but no picture, slot 1 nothing: no image, no request.
    expect(thumbOf('3')).toBeNull();
    expect(thumbOf('1')).toBeNull();
    const asked = fetch.mock.calls.map(([u]) => String(u));
    expect(asked.filter((u) => u.includes('/screenshot'))).toEqual(['/api/games/7/states/2/screenshot']);

    expect(screen.getByRole('button', { name: /Account slot 1 — empty/ }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: /Account slot 3 — 11:05/ }));
    expect(onSelect).toHaveBeenCalledWith('3');
  });

  it('revokes the picture it made when the image changes or goes', async () => {
    const { rerender, unmount } = renderWithShell(<SlotThumbnail image={PNG} alt="Screenshot of where you left off" />);
    const img = await screen.findByRole('img', { name: 'Screenshot of where you left off' });
    expect(img.getAttribute('src')).toBe('blob:shot-1');
    rerender(<SlotThumbnail image={null} alt="Screenshot of where you left off" />);
    await waitFor(() => expect(screen.queryByRole('img')).toBeNull());
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:shot-1');
    unmount();
  });

  it('a save loads the list again and the new picture, not the pictures of the other slots', async () => {
    let list = states;
    const fetch = stubFetch({
      'GET /api/games/7/states': () => json(list),
      'PUT /api/games/7/states/3': () => {
        list = states.map((s) => (s.slot === '3' ? { ...s, updatedAt: '2026-11-23T12:00:00Z', hasScreenshot: true } : s));
        return new Response(null, { status: 204 });
      },
      'PUT /api/games/7/states/3/screenshot': () => new Response(null, { status: 204 }),
      'GET /api/games/7/states/auto/screenshot': () => png(),
      'GET /api/games/7/states/2/screenshot': () => png(),
      'GET /api/games/7/states/3/screenshot': () => png(),
    });
    function Slots() {
      const list = useAccountStates(7, true);
      const save = useSaveAccountState(7);
      return (
        <>
          <AccountSlotList gameId={7} states={list.data} selected="3" onSelect={() => undefined} formatDate={(iso) => iso} />
          <button type="button" onClick={() => save.mutate({ slot: '3', core: 'fceumm', data: new Uint8Array([1]), shot: PNG })}>
            save
          </button>
        </>
      );
    }
    renderWithShell(<Slots />);
    await waitFor(() => expect(thumbOf('2')).not.toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'save' }));
    await waitFor(() => expect(thumbOf('3')).not.toBeNull());
    const gets = fetch.mock.calls
      .filter(([, init]) => (init?.method ?? 'GET') === 'GET')
      .map(([u]) => String(u))
      .filter((u) => u.includes('/screenshot'));
    expect(gets.sort()).toEqual(['/api/games/7/states/2/screenshot', '/api/games/7/states/3/screenshot']);
  });

  it('saves the state first, then its picture; a picture refused keeps the saved state', async () => {
    const order: string[] = [];
    stubFetch({
      'PUT /api/games/7/states/4': ({ headers }) => {
        order.push(`state ${headers.get('X-Emulator-Core')}`);
        return new Response(null, { status: 204 });
      },
      'PUT /api/games/7/states/4/screenshot': ({ headers }) => {
        order.push(`shot ${headers.get('Content-Type')}`);
        return new Response(JSON.stringify({ status: 413, message: 'too large' }), { status: 413 });
      },
    });
    await expect(saveAccountState(7, '4', 'fceumm', new Uint8Array([1, 2, 3]), PNG)).resolves.toBeUndefined();
    expect(order).toEqual(['state fceumm', 'shot image/png']);
  });
});
