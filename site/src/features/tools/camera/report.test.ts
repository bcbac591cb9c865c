import { describe, expect, it } from 'vitest';
import {
  SCAN_MODES,
  aspectRatio,
  averageFps,
  buildReport,
  cameraDevices,
  capabilityControls,
  megapixels,
  pruneSamples,
  reportFileName,
  type FrameSample,
} from './report';

/** Frames presented every `interval` ms from t0, counted from `frames0`. */
function samples(n: number, interval: number, t0 = 0, frames0 = 0): FrameSample[] {
  return Array.from({ length: n }, (_, i) => ({ time: t0 + i * interval, frames: frames0 + i }));
}

describe('averageFps', () => {
  it('needs two samples that span time', () => {
    expect(averageFps([])).toBeNull();
    expect(averageFps([{ time: 5, frames: 1 }])).toBeNull();
    expect(averageFps([{ time: 5, frames: 1 }, { time: 5, frames: 2 }])).toBeNull();
  });
  it('measures a steady 20 fps and 30 fps stream', () => {
    expect(averageFps(samples(21, 50))).toBeCloseTo(20, 5);
    expect(averageFps(samples(31, 1000 / 30))).toBeCloseTo(30, 5);
  });
  it('counts frames the callback skipped through presentedFrames', () => {
    // a callback every 100 ms but 3 frames presented each time → 30 fps
    const s = Array.from({ length: 11 }, (_, i) => ({ time: i * 100, frames: i * 3 }));
    expect(averageFps(s)).toBeCloseTo(30, 5);
  });
  it('averages over the last second only', () => {
    // 2 s at 10 fps, then 1 s at 25 fps: the average is the recent 25
    const slow = samples(21, 100);
    const fast = samples(26, 40, 2000, 20).slice(1);
    expect(averageFps([...slow, ...fast])).toBeCloseTo(25, 5);
  });
});

describe('pruneSamples', () => {
  it('keeps the last second plus its start', () => {
    const s = samples(31, 100); // 0..3000
    const kept = pruneSamples(s);
    expect(kept[0].time).toBe(2000);
    expect(kept[kept.length - 1].time).toBe(3000);
    expect(averageFps(kept)).toBeCloseTo(10, 5);
  });
  it('leaves short lists alone', () => {
    const s = samples(3, 100);
    expect(pruneSamples(s)).toBe(s);
    expect(pruneSamples([])).toEqual([]);
  });
});

describe('aspectRatio and megapixels', () => {
  it.each([
    [1280, 720, '16:9', 0.92],
    [640, 480, '4:3', 0.31],
    [352, 288, '11:9', 0.1],
    [1920, 1080, '16:9', 2.07],
    [3840, 2160, '16:9', 8.29],
    [720, 1280, '9:16', 0.92],
  ])('%s×%s → %s, %s MP', (w, h, ratio, mp) => {
    expect(aspectRatio(w, h)).toBe(ratio);
    expect(megapixels(w, h)).toBe(mp);
  });
  it('is empty for no size', () => {
    expect(aspectRatio(0, 720)).toBe('');
  });
});

describe('SCAN_MODES', () => {
  it('runs from 160×120 to 3840×2160, growing', () => {
    expect(SCAN_MODES[0]).toMatchObject({ width: 160, height: 120 });
    expect(SCAN_MODES[SCAN_MODES.length - 1]).toMatchObject({ width: 3840, height: 2160 });
    for (let i = 1; i < SCAN_MODES.length; i++)
      expect(SCAN_MODES[i].width * SCAN_MODES[i].height).toBeGreaterThan(SCAN_MODES[i - 1].width * SCAN_MODES[i - 1].height);
    expect(SCAN_MODES.map((m) => `${m.width}x${m.height}`)).toContain('1280x720');
  });
});

describe('cameraDevices', () => {
  it('keeps cameras only, numbered, with null for a hidden label', () => {
    const list = [
      { kind: 'audioinput', deviceId: 'm', label: 'Mic' },
      { kind: 'videoinput', deviceId: 'a', label: '' },
      { kind: 'videoinput', deviceId: 'b', label: ' Back camera ' },
    ] as MediaDeviceInfo[];
    expect(cameraDevices(list)).toEqual([
      { deviceId: 'a', label: null, index: 0 },
      { deviceId: 'b', label: 'Back camera', index: 1 },
    ]);
  });
});

describe('capabilityControls', () => {
  it('shows nothing for a track without image-capture capabilities', () => {
    expect(capabilityControls(null, null)).toEqual([]);
    expect(capabilityControls({ width: { min: 1, max: 1920 }, facingMode: [] }, {})).toEqual([]);
  });

  it('lists every supported control in order with the current values', () => {
    const caps = {
      zoom: { min: 1, max: 4, step: 0.1 },
      torch: true,
      focusMode: ['manual', 'continuous'],
      exposureCompensation: { min: -2, max: 2, step: 0.5 },
      whiteBalanceMode: ['manual', 'continuous'],
      colorTemperature: { min: 2500, max: 7500, step: 100 },
    };
    const settings = { zoom: 2, torch: false, focusMode: 'continuous', exposureCompensation: 0, whiteBalanceMode: 'continuous', colorTemperature: 5000 };
    expect(capabilityControls(caps, settings)).toEqual([
      { kind: 'range', name: 'zoom', min: 1, max: 4, step: 0.1, value: 2 },
      { kind: 'toggle', name: 'torch', value: false },
      { kind: 'select', name: 'focusMode', options: ['manual', 'continuous'], value: 'continuous' },
      { kind: 'range', name: 'exposureCompensation', min: -2, max: 2, step: 0.5, value: 0 },
      { kind: 'select', name: 'whiteBalanceMode', options: ['manual', 'continuous'], value: 'continuous' },
      { kind: 'range', name: 'colorTemperature', min: 2500, max: 7500, step: 100, value: 5000 },
    ]);
  });

  it('skips degenerate ranges, single choices and a torch that cannot light', () => {
    const caps = {
      zoom: { min: 1, max: 1 },
      torch: [false],
      focusMode: ['continuous'],
      exposureCompensation: { min: 0 },
      whiteBalanceMode: 'auto',
    };
    expect(capabilityControls(caps, {})).toEqual([]);
  });

  it('accepts the newer torch form and fills missing values', () => {
    const out = capabilityControls({ torch: [false, true], zoom: { min: 100, max: 400 } }, {});
    expect(out).toEqual([
      { kind: 'range', name: 'zoom', min: 100, max: 400, step: 3, value: 100 },
      { kind: 'toggle', name: 'torch', value: false },
    ]);
  });
});

describe('buildReport', () => {
  const base = {
    now: new Date('2026-11-23T05:00:00Z'),
    label: 'Integrated Webcam (0c45:6a10)',
    settings: { width: 1280, height: 720, frameRate: 30, facingMode: 'user', deviceId: 'dev-secret', groupId: 'grp-secret' },
    capabilities: { width: { min: 1, max: 1920 }, deviceId: 'dev-secret', groupId: 'grp-secret' },
    measuredFps: 29.94,
    scan: [{ width: 640, height: 480, name: 'VGA', fps: 30.04 }],
  };

  it('never carries ids, and no label unless asked', () => {
    const r = buildReport({ ...base, includeLabel: false });
    const text = JSON.stringify(r);
    expect(text).not.toContain('secret');
    expect(text).not.toContain('Integrated Webcam');
    expect(r).not.toHaveProperty('label');
    expect(r).toMatchObject({
      generatedAt: '2026-11-23T05:00:00.000Z',
      resolution: { width: 1280, height: 720, aspectRatio: '16:9', megapixels: 0.92 },
      measuredFps: 29.9,
      facingMode: 'user',
      settings: { width: 1280, height: 720, frameRate: 30 },
      capabilities: { width: { min: 1, max: 1920 } },
      scan: [{ width: 640, height: 480, name: 'VGA', fps: 30 }],
    });
  });

  it('includes the label when the box is ticked', () => {
    const r = buildReport({ ...base, includeLabel: true });
    expect(r.label).toBe('Integrated Webcam (0c45:6a10)');
    expect(JSON.stringify(r)).not.toContain('secret');
  });

  it('copes with no stream', () => {
    expect(buildReport({ ...base, settings: null, capabilities: null, measuredFps: null, scan: [], includeLabel: false })).toMatchObject({
      resolution: null,
      measuredFps: null,
      facingMode: null,
      settings: null,
      capabilities: null,
    });
  });

  it('is named camera-report_<timestamp>.json', () => {
    expect(reportFileName(1700000000000)).toBe('camera-report_1700000000000.json');
  });
});
