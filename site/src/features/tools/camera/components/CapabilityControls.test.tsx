import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { initTestI18n, renderWithShell } from '../../../../test/utils';
import '../i18n';
import { CapabilityControls } from './CapabilityControls';

// Chromium's fake camera offers none of these controls, so a real camera's are checked here
// against a track stub that reports capabilities as a phone camera does.
beforeAll(async () => {
  await initTestI18n('en');
});

function track(caps: Record<string, unknown> | undefined, settings: Record<string, unknown>, apply = vi.fn(async () => {})) {
  return {
    getCapabilities: caps ? () => caps : undefined,
    getSettings: () => settings,
    applyConstraints: apply,
  } as unknown as MediaStreamTrack;
}

describe('CapabilityControls', () => {
  it('shows only what the track supports and applies a change as an advanced constraint', async () => {
    const apply = vi.fn(async () => {});
    const t = track(
      { zoom: { min: 1, max: 8, step: 0.1 }, torch: true, focusMode: ['continuous', 'manual'] },
      { zoom: 1, torch: false, focusMode: 'continuous' },
      apply,
    );
    renderWithShell(<CapabilityControls track={t} />);
    const zoom = screen.getByLabelText('Zoom') as HTMLInputElement;
    expect([zoom.min, zoom.max, zoom.step]).toEqual(['1', '8', '0.1']);
    expect(screen.getByLabelText('Torch')).toBeTruthy();
    expect(screen.getByLabelText('Focus mode')).toBeTruthy();
    expect(screen.queryByLabelText('Exposure compensation')).toBeNull();
    expect(screen.queryByLabelText('White balance')).toBeNull();
    fireEvent.change(zoom, { target: { value: '2.5' } });
    await waitFor(() => expect(apply).toHaveBeenCalledWith({ advanced: [{ zoom: 2.5 }] }));
    fireEvent.click(screen.getByLabelText('Torch'));
    await waitFor(() => expect(apply).toHaveBeenCalledWith({ advanced: [{ torch: true }] }));
  });

  it('says so when the camera offers no control', async () => {
    renderWithShell(<CapabilityControls track={track(undefined, {})} />);
    expect(screen.getByText(/offers no zoom, torch, focus, exposure or white balance/)).toBeTruthy();
  });

  it('reports a refused value', async () => {
    const t = track({ zoom: { min: 1, max: 4, step: 1 } }, { zoom: 1 }, vi.fn(async () => Promise.reject(new Error('OverconstrainedError'))));
    renderWithShell(<CapabilityControls track={t} />);
    fireEvent.change(screen.getByLabelText('Zoom'), { target: { value: '3' } });
    expect(await screen.findByText('The camera did not accept this value.')).toBeTruthy();
  });
});
