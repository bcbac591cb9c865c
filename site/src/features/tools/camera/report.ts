// The camera report ("Camera — beyond"): what the track really delivers, computed from
// getSettings()/getCapabilities() and from frames counted in the page — never the negotiated
// frame rate alone.

/** Frame rate is averaged over this window (the last second of presented frames). */
export const FPS_WINDOW_MS = 1000;

/** One presented frame: when (ms) and the browser's running count of presented frames. */
export interface FrameSample {
  time: number;
  frames: number;
}

/**
 * Frames per second over the last `windowMs` of samples: presented frames between the first and
 * the last sample in the window divided by the time between them. null until two samples span
 * some time.
 */
export function averageFps(samples: readonly FrameSample[], windowMs = FPS_WINDOW_MS): number | null {
  if (samples.length < 2) return null;
  const last = samples[samples.length - 1];
  let first = last;
  for (let i = samples.length - 2; i >= 0 && last.time - samples[i].time <= windowMs; i--) first = samples[i];
  const dt = last.time - first.time;
  const df = last.frames - first.frames;
  if (dt <= 0 || df <= 0) return null;
  return (df * 1000) / dt;
}

/** Drops samples older than the window (keeping one just outside it as the window's start). */
export function pruneSamples(samples: FrameSample[], windowMs = FPS_WINDOW_MS): FrameSample[] {
  if (samples.length === 0) return samples;
  const last = samples[samples.length - 1].time;
  let start = 0;
  while (start < samples.length - 1 && last - samples[start + 1].time >= windowMs) start++;
  return start === 0 ? samples : samples.slice(start);
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

/** "16:9" for 1280×720, "4:3" for 640×480; "" for an empty size. */
export function aspectRatio(width: number, height: number): string {
  const w = Math.round(width);
  const h = Math.round(height);
  if (w <= 0 || h <= 0) return '';
  const g = gcd(w, h);
  return `${w / g}:${h / g}`;
}

/** Megapixels with two decimals: 1280×720 → 0.92. */
export function megapixels(width: number, height: number): number {
  return Math.round((width * height) / 1e4) / 100;
}

/** The standard modes the resolution scan tries, smallest first. */
export const SCAN_MODES: ReadonlyArray<{ width: number; height: number; name: string }> = [
  { width: 160, height: 120, name: 'QQVGA' },
  { width: 176, height: 144, name: 'QCIF' },
  { width: 320, height: 240, name: 'QVGA' },
  { width: 352, height: 288, name: 'CIF' },
  { width: 640, height: 360, name: 'nHD' },
  { width: 640, height: 480, name: 'VGA' },
  { width: 800, height: 600, name: 'SVGA' },
  { width: 960, height: 540, name: 'qHD' },
  { width: 1024, height: 768, name: 'XGA' },
  { width: 1280, height: 720, name: 'HD' },
  { width: 1280, height: 960, name: 'SXGA−' },
  { width: 1600, height: 1200, name: 'UXGA' },
  { width: 1920, height: 1080, name: 'Full HD' },
  { width: 2560, height: 1440, name: 'QHD' },
  { width: 3840, height: 2160, name: '4K UHD' },
];

export interface ScanResult {
  width: number;
  height: number;
  name: string;
  /** The frame rate measured while the mode ran (null when no frame arrived). */
  fps: number | null;
}

/** A camera as the picker shows it; label null until the browser reveals it ('Camera N' then). */
export interface CameraDevice {
  deviceId: string;
  label: string | null;
  index: number;
}

export function cameraDevices(list: readonly Pick<MediaDeviceInfo, 'kind' | 'deviceId' | 'label'>[]): CameraDevice[] {
  return list
    .filter((d) => d.kind === 'videoinput')
    .map((d, index) => ({ deviceId: d.deviceId, label: d.label.trim() || null, index }));
}

// ---- capability controls -------------------------------------------------------------------

export type RangeName = 'zoom' | 'exposureCompensation' | 'colorTemperature';
export type SelectName = 'focusMode' | 'whiteBalanceMode';

export type CapabilityControl =
  | { kind: 'range'; name: RangeName; min: number; max: number; step: number; value: number }
  | { kind: 'select'; name: SelectName; options: string[]; value: string }
  | { kind: 'toggle'; name: 'torch'; value: boolean };

/** The image-capture members of MediaTrackCapabilities (not all in the DOM typings yet). */
type Caps = Record<string, unknown>;

interface NumRange {
  min: number;
  max: number;
  step?: number;
}

function asRange(v: unknown): NumRange | null {
  if (!v || typeof v !== 'object') return null;
  const { min, max, step } = v as Partial<NumRange>;
  if (typeof min !== 'number' || typeof max !== 'number' || !Number.isFinite(min) || !Number.isFinite(max) || max <= min)
    return null;
  return { min, max, step: typeof step === 'number' && step > 0 ? step : undefined };
}

/**
 * The controls a track supports, in a fixed order: zoom, torch, focus mode, exposure
 * compensation, white balance (mode, then colour temperature). A range needs min < max, a choice
 * at least two options, the torch `true` among its capabilities; anything else is not shown.
 */
export function capabilityControls(caps: Caps | null | undefined, settings: Caps | null | undefined): CapabilityControl[] {
  if (!caps) return [];
  const s = settings ?? {};
  const out: CapabilityControl[] = [];
  const range = (name: RangeName) => {
    const r = asRange(caps[name]);
    if (!r) return;
    const cur = typeof s[name] === 'number' ? (s[name] as number) : r.min;
    out.push({ kind: 'range', name, min: r.min, max: r.max, step: r.step ?? (r.max - r.min) / 100, value: cur });
  };
  const select = (name: SelectName) => {
    const opts = caps[name];
    if (!Array.isArray(opts)) return;
    const options = opts.filter((o): o is string => typeof o === 'string');
    if (options.length < 2) return;
    const cur = typeof s[name] === 'string' && options.includes(s[name] as string) ? (s[name] as string) : options[0];
    out.push({ kind: 'select', name, options, value: cur });
  };
  range('zoom');
  const torch = caps.torch;
  if (torch === true || (Array.isArray(torch) && torch.includes(true))) out.push({ kind: 'toggle', name: 'torch', value: s.torch === true });
  select('focusMode');
  range('exposureCompensation');
  select('whiteBalanceMode');
  range('colorTemperature');
  return out;
}

// ---- the exported report -------------------------------------------------------------------

/** Members of settings/capabilities that identify the device and never go into a report. */
const PRIVATE_KEYS = new Set(['deviceId', 'groupId']);

function withoutIds(o: Caps | null | undefined): Caps | null {
  if (!o) return null;
  return Object.fromEntries(Object.entries(o).filter(([k]) => !PRIVATE_KEYS.has(k)));
}

export interface ReportInput {
  now: Date;
  label: string | null;
  settings: Caps | null;
  capabilities: Caps | null;
  measuredFps: number | null;
  scan: readonly ScanResult[];
  includeLabel: boolean;
}

/**
 * The JSON a visitor downloads. Device and group ids are always left out; the camera's label
 * only goes in when the visitor ticked the box (labels often name the laptop or the person).
 */
export function buildReport(input: ReportInput): Record<string, unknown> {
  const s = input.settings ?? {};
  const w = typeof s.width === 'number' ? s.width : 0;
  const h = typeof s.height === 'number' ? s.height : 0;
  const report: Record<string, unknown> = {
    generatedAt: input.now.toISOString(),
    resolution: w && h ? { width: w, height: h, aspectRatio: aspectRatio(w, h), megapixels: megapixels(w, h) } : null,
    measuredFps: input.measuredFps === null ? null : Math.round(input.measuredFps * 10) / 10,
    facingMode: typeof s.facingMode === 'string' && s.facingMode ? s.facingMode : null,
    settings: withoutIds(input.settings),
    capabilities: withoutIds(input.capabilities),
    scan: input.scan.map((r) => ({ ...r, fps: r.fps === null ? null : Math.round(r.fps * 10) / 10 })),
  };
  if (input.includeLabel) report.label = input.label;
  return report;
}

/** camera-report_<timestamp>.json */
export function reportFileName(timestamp: number): string {
  return `camera-report_${Math.trunc(timestamp)}.json`;
}
