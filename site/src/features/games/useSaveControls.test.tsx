import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useAuth } from '../../lib/auth';
import { initTestI18n, json, renderWithShell, stubFetch } from '../../test/utils';
import { useControls, useSaveControls } from './api';
import { BUTTON } from './emulator/input';

const answer = (body: { keys: unknown; gamepad: unknown }) => json({ ...body, updatedAt: '2026-11-23T11:00:00Z' });

describe('useSaveControls', () => {
  beforeAll(async () => {
    await initTestI18n('en');
  });
  afterEach(() => localStorage.clear());

  it('sends a signed-in player’s changes one after another, so the last change is the one kept', async () => {
    localStorage.setItem('token', 't');
    const sent: Array<{ keys: unknown; gamepad: unknown }> = [];
    const release: Array<() => void> = [];
    stubFetch({
      '/api/auth/profile': () => json({ id: 1, email: 'a@example.com', name: 'A', role: 'user' }),
      'GET /api/games/controls/nes': () => answer({ keys: null, gamepad: null }),
      'PUT /api/games/controls/nes': ({ body }) => {
        const b = body as { keys: unknown; gamepad: unknown };
        sent.push(b);
        return new Promise<Response>((resolve) => release.push(() => resolve(answer(b))));
      },
    });
    let save: ReturnType<typeof useSaveControls> | undefined;
    let shown: ReturnType<typeof useControls>['data'];
    function Probe() {
      const { user } = useAuth();
      save = useSaveControls('nes');
      shown = useControls('nes').data;
      return <p>{user && shown ? 'ready' : 'loading'}</p>;
    }
    renderWithShell(<Probe />);
    await screen.findByText('ready');

    // Two bindings in quick succession (K for A, then L for B): each PUT is the whole mapping.
    const first = { keys: { KeyK: BUTTON.A }, pad: null };
    const second = { keys: { KeyK: BUTTON.A, KeyL: BUTTON.B }, pad: null };
    act(() => {
      save!.mutate(first);
      save!.mutate(second);
    });
    await waitFor(() => expect(shown).toEqual(second)); // used at once
    await waitFor(() => expect(sent.length).toBeGreaterThan(0));
    // The second waits for the first's answer: the server never gets them crossed.
    expect(sent).toEqual([{ keys: first.keys, gamepad: null }]);
    act(() => release[0]());
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(shown).toEqual(second); // the first's answer does not take the second change away
    expect(sent[1]).toEqual({ keys: second.keys, gamepad: null });
    act(() => release[1]());
    await waitFor(() => expect(save!.isSuccess).toBe(true));
    expect(shown).toEqual(second);
  });
});
